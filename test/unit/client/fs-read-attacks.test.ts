/**
 * The attack matrix's rows for `fs/read_text_file` on the host path, on real folders: a prompt-injected agent that
 * runs shell commands through its own tools swaps a workspace folder for a link to `~/.ssh` while it asks for a file
 * in it, over and over (a check of the path followed by an open of the path loses that race now and then), or plants
 * FIFOs and asks for them (an open that waits for a writer holds one of libuv's four file-system threads for good,
 * and with four of them every extension's file I/O in the host stalls), or asks for dozens of large files at once
 * (each answer held in the extension host's memory, which every extension shares). Each row asserts that the secret
 * never reaches the agent, or that the read ends at once and other file I/O goes on, or that only a few files are
 * read at once while every answer still comes back whole, and what the agent is told.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { FileSystemHandler, type RefusedAccess } from '../../../src/client/fs-handler';
import { openForRead, type OpenForRead } from '../../../src/client/open-for-read';
import type { AttackCase } from '../../support/attack-case';
import { whileFolderSwapped } from '../../support/folder-swapper';
import { MemoryEditorFiles } from '../../support/host-harness';

const SECRET = '-----BEGIN OPENSSH PRIVATE KEY----- (outside the workspace)';
const HOST = 'the fs handler with real files in a temp folder (host path)';

interface World {
  readonly root: string;
  readonly outside: string;
  readonly handler: FileSystemHandler;
  readonly refused: RefusedAccess[];
  readonly diskReads: ReadsInFlight;
  file(name: string): string;
}

/** Counts the handler's reads on disk, each from its open until its file is closed, and the most at once. */
class ReadsInFlight {
  opens = 0;
  now = 0;
  most = 0;

  readonly open: typeof openForRead = async (absolutePath, realRoots) => {
    this.opens++;
    this.now++;
    this.most = Math.max(this.most, this.now);
    let opened: OpenForRead;
    try {
      opened = await openForRead(absolutePath, realRoots);
    } catch (error) {
      this.now--;
      throw error;
    }
    if (opened.kind !== 'opened') {
      this.now--;
      return opened;
    }
    const file = opened.file;
    return {
      kind: 'opened',
      file: { size: file.size, chunks: () => file.chunks(), close: () => file.close().finally(() => this.now--) },
    };
  };
}

interface Row extends AttackCase {
  readonly run: (world: World) => Promise<void>;
}

/** What a read answered: its text, or the agent's error message. */
async function outcome(read: Promise<{ content: string }>): Promise<string> {
  return read.then(
    (answer) => answer.content,
    (error: unknown) => `error: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** `promise`'s outcome, or 'still waiting' once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const FIFOS = ['p1', 'p2', 'p3', 'p4'];

const MB = 1024 * 1024;
/** Reads the handler runs on disk at once (fs-handler.ts); the rest wait their turn. */
const MOST_DISK_READS = 4;

const rows: Row[] = [
  {
    attack: 'fs/read_text_file of ws/docs/id_rsa while the agent swaps ws/docs between a folder and a link to ~/.ssh',
    driven: `${HOST}: a worker thread swaps the folder by atomic renames while the agent reads the file for 2.5 s`,
    sees: 'the agent gets the workspace file or "Refused to read …"; never the key outside, and the user is told of refusals',
    run: async (w) => {
      const folder = w.file('docs');
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'id_rsa'), 'plain text');
      const seen = new Map<string, number>();
      const swaps = await whileFolderSwapped(folder, w.outside, async () => {
        const until = Date.now() + 2_500;
        while (Date.now() < until) {
          const text = await outcome(w.handler.readTextFile({ path: path.join(folder, 'id_rsa') }));
          // Errors differ by path and timing; what matters is whether a read answered text, and which.
          const key = text.startsWith('error: Refused') ? 'refused' : text.startsWith('error: ') ? 'error' : text;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      });
      const shown = JSON.stringify([...seen]);
      assert.ok(swaps > 100, 'the swapper ran');
      assert.ok((seen.get('plain text') ?? 0) > 0, `some reads found the workspace file: ${shown}`);
      assert.equal(seen.get(SECRET), undefined, `the key outside the workspace reached the agent: ${shown}`);
      assert.ok(w.refused.length > 0 && w.refused.every((r) => r.operation === 'read'), 'the user is told of refused reads');
    },
  },
  {
    attack: 'fs/read_text_file of four FIFOs the agent made (mkfifo ws/p1..p4), all at once',
    driven: `${HOST}: four reads in parallel, and meanwhile an unrelated async file read of the host`,
    sees: 'each read is refused at once ("… is a named pipe (FIFO), not a regular file"); other file I/O goes on',
    run: async (w) => {
      for (const name of FIFOS) execFileSync('mkfifo', [w.file(name)]);
      writeFileSync(w.file('other.txt'), 'other extension');
      const reads = FIFOS.map((name) => outcome(w.handler.readTextFile({ path: w.file(name) })));
      // Another extension's read, once the four are under way: libuv's pool has four threads (unless
      // UV_THREADPOOL_SIZE says otherwise), so four opens waiting on FIFOs would leave it none.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await within(readFile(w.file('other.txt'), 'utf8'), 2_000), 'other extension', "the host's file I/O goes on");
      for (const [index, read] of reads.entries())
        assert.match(
          await within(read, 2_000),
          /^error: Refused to read .*p\d: it is a named pipe \(FIFO\), not a regular file/,
          `read of ${FIFOS[index] ?? '?'}`,
        );
    },
  },
  {
    attack: "fs/read_text_file of 30 large files at once, each under the read cap, to run the host's memory out",
    driven:
      `${HOST}: four reads of files over the cap (refused once opened), then 30 reads of distinct 4 MB files, all sent ` +
      'together; every open on disk is counted until its file is closed',
    sees: 'each file answers whole and the four over the cap are refused; at most four are read from disk at once',
    run: async (w) => {
      // Sparse, so making them costs nothing; fstat says 11 MB, over the default 10 MB cap.
      const overCap = ['huge1', 'huge2', 'huge3', 'huge4'];
      for (const name of overCap) {
        writeFileSync(w.file(name), '');
        truncateSync(w.file(name), 11 * MB);
      }
      // Each file's own lines, so an answer that came back from another file shows.
      const texts = Array.from({ length: 30 }, (_, index) => {
        const line = `line of file ${String(index).padStart(2, '0')}\n`;
        return line.repeat(Math.ceil((4 * MB) / line.length));
      });
      texts.forEach((text, index) => writeFileSync(w.file(`big${index}.txt`), text));
      // The refused ones first: each holds a turn on disk until it throws, and a turn not given back stalls the rest.
      const refusals = overCap.map((name) => outcome(w.handler.readTextFile({ path: w.file(name) })));
      const answers = texts.map((_, index) => w.handler.readTextFile({ path: w.file(`big${index}.txt`) }));
      for (const [index, refusal] of refusals.entries())
        assert.match(await refusal, /^error: .*huge\d: the file is 11\.0 MB, over the client's read limit/, `read of ${overCap[index]}`);
      for (const [index, answer] of (await Promise.all(answers)).entries())
        assert.ok(answer.content === texts[index], `big${index}.txt answered its own text whole`);
      assert.ok(w.diskReads.most <= MOST_DISK_READS, `at most ${MOST_DISK_READS} reads on disk at once, but ${w.diskReads.most} were`);
      assert.equal(w.diskReads.opens, overCap.length + texts.length, 'every read was counted');
      assert.equal(w.diskReads.now, 0, 'every file opened was closed');
    },
  },
];

describe('attacks on fs/read_text_file (links swapped in, FIFOs, a flood of large reads)', function () {
  this.timeout(20_000);
  if (process.platform === 'win32') return;
  let scratch: string;

  afterEach(() => {
    // An open that is still waiting on a FIFO (the old code's) gets a writer, so its thread is released.
    for (const name of FIFOS) {
      try {
        closeSync(openSync(path.join(scratch, 'ws', name), constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader waiting, or no FIFO.
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const row of rows) {
    it(`attack: ${row.attack}`, async () => {
      scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-read-attacks-')));
      const root = path.join(scratch, 'ws');
      const outside = path.join(scratch, 'ssh');
      mkdirSync(root);
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'id_rsa'), SECRET);
      const refused: RefusedAccess[] = [];
      const diskReads = new ReadsInFlight();
      const handler = new FileSystemHandler(new MemoryEditorFiles(root), (r) => refused.push(r), undefined, undefined, diskReads.open);
      await row.run({ root, outside, handler, refused, diskReads, file: (name) => path.join(root, name) });
    });
  }

  describe('what is not an attack reads as before', () => {
    beforeEach(() => {
      scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-read-attacks-')));
      mkdirSync(path.join(scratch, 'ws'));
    });

    it('reads through a folder link that stays inside the workspace (a monorepo package link)', async () => {
      const root = path.join(scratch, 'ws');
      mkdirSync(path.join(root, 'packages'));
      writeFileSync(path.join(root, 'packages', 'index.ts'), 'export {};\n');
      symlinkSync(path.join(root, 'packages'), path.join(root, 'linked'));
      const handler = new FileSystemHandler(new MemoryEditorFiles(root), () => undefined);
      assert.deepEqual(await handler.readTextFile({ path: path.join(root, 'linked', 'index.ts') }), { content: 'export {};\n' });
    });

    it('refuses a folder with a clear error', async () => {
      const root = path.join(scratch, 'ws');
      mkdirSync(path.join(root, 'src'));
      const handler = new FileSystemHandler(new MemoryEditorFiles(root), () => undefined);
      await assert.rejects(
        handler.readTextFile({ path: path.join(root, 'src') }),
        (error: unknown) => error instanceof ResponseError && /^Refused to read .*src: it is a folder, not a file/.test(error.message),
      );
    });
  });
});
