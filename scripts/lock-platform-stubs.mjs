// The npm registry this project reaches serves only some platforms' builds of a few packages' optional native
// binaries (opencode-ai's, qwen-code's clipboard, unrs-resolver's). `npm install` then leaves those optional
// dependencies out of package-lock.json, and `npm ci` refuses the lock ("Missing: … from lock file"). This adds
// an entry for each such dependency, marked optional and limited to its own os/cpu, so `npm ci` accepts the lock
// and, on this platform, never fetches them. Run it after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = [
  ['darwin', 'darwin'],
  ['windows', 'win32'],
  ['win32', 'win32'],
  ['android', 'android'],
  ['freebsd', 'freebsd'],
  ['openharmony', 'openharmony'],
  ['linux', 'linux'],
];
const CPU = [
  ['arm64', 'arm64'],
  ['aarch64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['arm', 'arm'],
  ['loong64', 'loong64'],
  ['ppc64', 'ppc64'],
  ['riscv64', 'riscv64'],
  ['s390x', 's390x'],
];

function platformOf(name) {
  const base = name.split('/').pop();
  const parts = base.split('-');
  const os = OS.find(([word]) => parts.includes(word))?.[1];
  const cpu = CPU.find(([word]) => parts.includes(word))?.[1];
  return os && cpu ? { os: [os], cpu: [cpu] } : undefined;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d/.test(version)) continue;
    packages[`node_modules/${name}`] = { version, dev: entry.dev ?? undefined, optional: true, ...platform };
    added++;
  }
}
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-platform-stubs: added ${added} optional platform entries`);
