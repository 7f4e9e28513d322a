/**
 * A transparent stdio relay for a real agent: `node wire-tap.js <log file> <command> [args...]` runs the agent
 * and passes its stdin and stdout through untouched, appending every complete NDJSON line of both directions to the
 * log. The real-agent suites read it to assert what crossed the wire (which vendor requests an agent sent and what
 * we answered, whether it wrote through `fs/write_text_file` or on disk), which the chat alone cannot show.
 * The child stays in the relay's process group, so the extension's group kill stops both.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

export type WireDirection = 'to_agent' | 'from_agent';

const [logFile, command, ...args] = process.argv.slice(2);
if (!logFile || !command) {
  process.stderr.write('usage: wire-tap <log file> <command> [args...]\n');
  process.exit(2);
}

/** Logs each whole line of `chunk` (a partial tail waits for the next chunk), so a message is never split in two. */
function lineLogger(direction: WireDirection, file: string): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    const records = lines.filter((line) => line.trim() !== '').map((line) => `${JSON.stringify({ direction, line })}\n`);
    if (records.length > 0) appendFileSync(file, records.join(''));
  };
}

const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const logToAgent = lineLogger('to_agent', logFile);
const logFromAgent = lineLogger('from_agent', logFile);
process.stdin.on('data', (chunk: Buffer) => {
  logToAgent(chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (chunk: Buffer) => {
  logFromAgent(chunk);
  process.stdout.write(chunk);
});
// A write after the agent closed its stdin must not kill the relay before the agent's own exit is reported.
child.stdin.on('error', () => undefined);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
// 'close' comes after the agent's stdout has ended, so its last messages are relayed before the relay exits.
child.on('close', (code, signal) => {
  if (!signal) process.exit(code ?? 0);
  // End the way the agent did, so the extension reports the same signal.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
