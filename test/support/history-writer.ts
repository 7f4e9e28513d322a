/**
 * A real process that records the deterministic conversation into history forever, for the crash test to kill
 * with SIGKILL at an arbitrary moment. It prints `session <id>`, then `durable <n>` each time the first n actions
 * are known to be on disk (after flush()); between those, writes happen on the recorder's own timer.
 * Usage: node history-writer.js <history root> [compactAfterBytes]
 */
import { HistoryStore } from '../../src/history/history-store';
import { TranscriptStore } from '../../src/session/transcript-store';
import { conversation } from './history-conversation';

async function main(): Promise<void> {
  const [root, compactAfter] = process.argv.slice(2);
  if (!root) throw new Error('usage: history-writer <root> [compactAfterBytes]');
  const history = await HistoryStore.open(root, {
    compactAfterBytes: Number(compactAfter ?? 4096),
    onError: (error) => console.error(error),
  });
  const { id, recorder } = await history.create({ agentName: 'Scripted' });
  const store = new TranscriptStore();
  store.subscribe((action, state) => recorder.record(action, state));
  process.stdout.write(`session ${id}\n`);
  let count = 0;
  for (const action of conversation()) {
    store.dispatch(action);
    count++;
    if (count % 997 === 0) {
      await recorder.flush();
      process.stdout.write(`durable ${count}\n`);
    } else if (count % 7 === 0) {
      // Lets the recorder's window timer fire, so writes also start on their own, mid-stream.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
