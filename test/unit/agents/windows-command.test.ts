/**
 * Starting `.cmd` shims (npx, uvx) on Windows without a shell injection. We cannot run Windows here, so the plan is
 * checked against a model of how cmd.exe reads the line twice (once for `cmd /c`, once more for the shim's `%*`) and
 * how the program at the end splits its command line (the C runtime's rules): every hostile argument must come out
 * exactly as given, and no `&`, `|`, `<` or `>` may ever act as an operator. The model is ours, written from
 * Microsoft's documentation of cmd and of the C runtime's parsing; it is no substitute for a run on Windows.
 */
import * as assert from 'node:assert/strict';
import { batchArgument, windowsSpawnPlan } from '../../../src/agents/supervisor/windows-command';
import type { AttackCase } from '../../support/attack-case';

const ENV = {
  ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  Path: 'C:\\tools;C:\\Program Files\\nodejs\\',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
  X: 'expanded',
};
const FILES = new Set(['C:\\Program Files\\nodejs\\npx.cmd', 'C:\\tools\\agent.exe', 'C:\\work\\npx.cmd']);
const lookup = { env: ENV, exists: (file: string) => FILES.has(file) };

/** Phase 1 of cmd's reading of a command line: `%NAME%` of a defined variable is replaced; anything else stays. */
function expandPercents(text: string, env: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const end = text[i] === '%' ? text.indexOf('%', i + 1) : -1;
    const name = end > i ? text.slice(i + 1, end) : undefined;
    const key = name === undefined ? undefined : Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase());
    if (key !== undefined && end > i) {
      out += env[key];
      i = end;
    } else out += text[i];
  }
  return out;
}

/** Phase 2: quotes toggle quoting; outside them `^` makes the next character literal; `&|<>` would be operators. */
function readEscapes(text: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '"') quoted = !quoted;
    if (!quoted && char === '^') {
      out += text[++i] ?? '';
      continue;
    }
    if (!quoted && /[&|<>]/.test(char)) throw new Error(`cmd would run an operator ${char} in: ${text}`);
    out += char;
  }
  return out;
}

/** The C runtime's split of a program's command line into argv. */
function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '\\') {
      let count = 0;
      while (line[i] === '\\') {
        count++;
        i++;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(count / 2));
        if (count % 2 === 1) current += '"';
        else quoted = !quoted;
      } else {
        current += '\\'.repeat(count);
        i--;
      }
      inArg = true;
    } else if (char === '"') {
      quoted = !quoted;
      inArg = true;
    } else if ((char === ' ' || char === '\t') && !quoted) {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
    } else {
      current += char;
      inArg = true;
    }
  }
  if (inArg) args.push(current);
  return args;
}

/** What the program behind the shim (`node npx-cli.js %*`) receives, following cmd's two readings. */
function argumentsReceived(plan: { args: readonly string[] }): string[] {
  const outer = plan.args[4] ?? '';
  // `/s`: the first and last quote of the line go, the rest is read as is.
  const line = readEscapes(expandPercents(outer.slice(1, -1), ENV));
  const shim = /^"[^"]*"\s*/.exec(line);
  assert.ok(shim, `the line starts with the quoted shim path: ${line}`);
  // In the shim, `%*` is replaced once (not expanded again) and the result is read for escapes and operators.
  return splitCommandLine(readEscapes(line.slice(shim[0].length)));
}

const HOSTILE = [
  'a&calc.exe',
  '"&calc&"',
  'x|whoami',
  'a>C:\\Windows\\evil',
  '<input',
  '%PATH%',
  '%X%',
  '100%',
  '^',
  '^^&echo',
  '!X!',
  '(a)',
  'two words',
  '',
  'trailing\\',
  'C:\\dir\\',
  'say \\"hi\\"',
  '"',
  '\\"',
  'a"b"c',
  '\\\\server\\share',
  'ünïcødé ✓',
];

interface WindowsAttack extends AttackCase {
  readonly run: () => void;
}

const attacks: readonly WindowsAttack[] = [
  {
    attack: 'settings args for an npx agent hold cmd metacharacters (& | < > ^ % ! quotes)',
    driven: 'windowsSpawnPlan("npx", hostile args) read by a model of cmd /s /c and of the shim’s %*',
    sees: 'the agent starts with exactly those arguments; nothing else runs',
    run: () => {
      const plan = windowsSpawnPlan('npx', HOSTILE, lookup);
      assert.equal(plan.file, ENV.ComSpec);
      assert.deepEqual(plan.args.slice(0, 4), ['/d', '/s', '/v:off', '/c']);
      assert.equal(plan.verbatim, true);
      assert.deepEqual(argumentsReceived(plan), HOSTILE);
    },
  },
  {
    attack: 'an argument with a line break or NUL (cmd cannot carry it, and it would end the command)',
    driven: 'windowsSpawnPlan with "a\\r\\ncalc" and "a\\0b"',
    sees: 'a clear error; nothing is started',
    run: () => {
      for (const arg of ['a\r\ncalc', 'a\nb', 'a\0b']) assert.throws(() => windowsSpawnPlan('npx', [arg], lookup), /line break or NUL/);
    },
  },
  {
    attack: 'the workspace plants npx.cmd in its own folder',
    driven: 'a bare "npx" resolved with C:\\work\\npx.cmd present (the agent’s cwd) and the real one on PATH',
    sees: 'the npx from PATH runs, never one from the workspace',
    run: () => {
      const plan = windowsSpawnPlan('npx', ['-y', 'agent'], lookup);
      assert.match(plan.args[4] ?? '', /^""C:\\Program Files\\nodejs\\npx\.cmd" /);
    },
  },
  {
    attack: "an npm shim's bare `node` found in the workspace (cmd looks in the current folder first)",
    driven: 'windowsSpawnPlan("npx", …): the plan cmd.exe runs with',
    sees: 'NoDefaultCurrentDirectoryInExePath=1 for cmd and what the shim starts: node comes from PATH, never the workspace',
    run: () => {
      assert.deepEqual(windowsSpawnPlan('npx', ['-y', 'agent'], lookup).env, { NoDefaultCurrentDirectoryInExePath: '1' });
    },
  },
  {
    attack: 'a relative PATH entry (".", "node_modules\\.bin") names a folder of the workspace',
    driven: 'a bare "npx" resolved with PATH ".;node_modules\\.bin;C:\\Program Files\\nodejs" and npx.cmd in both relative folders',
    sees: 'the npx from the absolute PATH folder runs',
    run: () => {
      const planted = new Set(['.\\npx.cmd', 'node_modules\\.bin\\npx.cmd', 'C:\\Program Files\\nodejs\\npx.cmd']);
      const plan = windowsSpawnPlan('npx', [], {
        env: { ...ENV, PATH: '.;node_modules\\.bin;C:\\Program Files\\nodejs' },
        exists: (file) => planted.has(file),
      });
      assert.match(plan.args[4] ?? '', /^""C:\\Program Files\\nodejs\\npx\.cmd"/);
    },
  },
  {
    attack: 'a shim path that holds % or a quote (cmd would expand or split it)',
    driven: 'windowsSpawnPlan("C:\\\\a%X%\\\\run.cmd", [])',
    sees: 'a clear error naming the path; nothing is started',
    run: () => {
      assert.throws(() => windowsSpawnPlan('C:\\a%X%\\run.cmd', [], lookup), /cannot start .* safely/);
    },
  },
  {
    attack: 'an .exe agent is not routed through cmd at all',
    driven: 'windowsSpawnPlan("agent", ["a&b"]) with C:\\tools\\agent.exe on PATH',
    sees: 'the agent starts directly with its arguments (Node quotes them; no shell)',
    run: () => {
      assert.deepEqual(windowsSpawnPlan('agent', ['a&b'], lookup), { file: 'C:\\tools\\agent.exe', args: ['a&b'], verbatim: false });
    },
  },
];

describe('Windows: .cmd shims without a shell injection (modelled; not run on Windows)', () => {
  for (const row of attacks) it(`attack: ${row.attack}`, () => row.run());

  it('every cmd metacharacter in an argument is escaped: none reaches cmd bare', () => {
    for (const arg of HOSTILE) assert.doesNotMatch(batchArgument(arg).replace(/\^./g, ''), /[&|<>()%!^"]/, arg);
  });
});
