import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OutputBuffer } from '../../../src/client/output-buffer';
import { TerminalManager } from '../../../src/client/terminal-manager';

describe('terminal output buffer', () => {
  it('keeps everything under the limit', () => {
    const buffer = new OutputBuffer(100);
    buffer.append(Buffer.from('hello '));
    buffer.append(Buffer.from('world'));
    assert.equal(buffer.text(), 'hello world');
    assert.equal(buffer.truncated, false);
  });

  it('drops from the start and never splits a character', () => {
    const buffer = new OutputBuffer(4);
    buffer.append(Buffer.from('ab€cd')); // € is 3 bytes: 7 bytes in all
    // The last 4 bytes start inside €, so the cut moves forward to the next character.
    assert.equal(buffer.text(), 'cd');
    assert.equal(buffer.truncated, true);
    const roomy = new OutputBuffer(5);
    roomy.append(Buffer.from('ab€cd'));
    assert.equal(roomy.text(), '€cd');
  });
});

describe('terminal manager', () => {
  let root: string;
  before(() => (root = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-term-')))));
  after(() => rmSync(root, { recursive: true, force: true }));

  const manager = (outputs: string[] = []) =>
    new TerminalManager(
      () => [root],
      () => root,
      { onOutput: (_id, text) => outputs.push(text), onExit: () => undefined },
    );

  it('runs the command with args and env in the workspace, and reports its exit', async () => {
    const seen: string[] = [];
    const terminals = manager(seen);
    const { terminalId } = await terminals.create({
      command: process.execPath,
      args: ['-e', 'console.log(process.cwd(), process.env.GREETING); process.exit(4)'],
      env: [{ name: 'GREETING', value: 'hi' }],
    });
    assert.deepEqual(await terminals.waitForExit(terminalId), { exitCode: 4, signal: null });
    const result = terminals.output(terminalId);
    assert.equal(result.output.trim(), `${root} hi`);
    assert.deepEqual(result.exitStatus, { exitCode: 4, signal: null });
    assert.equal(seen.join('').trim(), `${root} hi`);
  });

  it('refuses a cwd outside the workspace', async () => {
    await assert.rejects(manager().create({ command: 'true', cwd: '/' }), /outside the workspace/);
  });

  it('kill ends the process and output stays readable until release', async () => {
    const terminals = manager();
    const { terminalId } = await terminals.create({
      command: process.execPath,
      args: ['-e', "console.log('started'); setInterval(() => {}, 1000)"],
    });
    // Kill only once it has spoken: on a loaded machine Node can take a while to start.
    for (let waited = 0; !/started/.test(terminals.output(terminalId).output) && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    terminals.kill(terminalId);
    const status = await terminals.waitForExit(terminalId);
    assert.equal(status.signal, 'SIGKILL');
    assert.match(terminals.output(terminalId).output, /started/);
    terminals.release(terminalId);
    assert.throws(() => terminals.output(terminalId), /Unknown or released terminal/);
  });

  it('honours outputByteLimit', async () => {
    const terminals = manager();
    const { terminalId } = await terminals.create({
      command: process.execPath,
      args: ['-e', "process.stdout.write('x'.repeat(1000) + 'END')"],
      outputByteLimit: 10,
    });
    await terminals.waitForExit(terminalId);
    const result = terminals.output(terminalId);
    assert.equal(result.output, 'xxxxxxxEND');
    assert.equal(result.truncated, true);
  });
});
