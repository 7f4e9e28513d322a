// Import circles among our own modules, type-only imports included: eslint's import-x/no-cycle skips `import type`,
// and a circle of types still ties two files together. Run by `npm run lint`; exits 1 and names each circle found.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['src', 'webview'];
const root = process.cwd();

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [file] : [];
  });
}

const options = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.Preserve, allowImportingTsExtensions: true };
const files = ROOTS.flatMap((dir) => sources(path.join(root, dir)));
const known = new Set(files);
const edges = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
    if (resolved && known.has(path.resolve(resolved))) targets.add(path.resolve(resolved));
  }
  edges.set(file, [...targets]);
}

// Tarjan's strongly connected components: every component of more than one file (or a file importing itself) is a circle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function visit(file) {
  index.set(file, counter);
  low.set(file, counter++);
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file)) {
    if (!index.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || edges.get(file).includes(file)) circles.push(component);
}
for (const file of files) if (!index.has(file)) visit(file);

for (const circle of circles) console.error(`import circle: ${circle.map((file) => path.relative(root, file)).join(' <-> ')}`);
if (circles.length > 0) process.exit(1);
console.log(`no import circles among ${files.length} files (type-only imports included)`);
