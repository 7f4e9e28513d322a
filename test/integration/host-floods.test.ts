/**
 * The real extension host under floods, in the real VS Code: while an agent's command prints 50 MB (with a 1,000-byte
 * `outputByteLimit` and with none) or an agent streams a 20 MB message, with the chat and the command's VS Code
 * terminal on screen, a command still answers at once. The probe is what a user's command costs: a round trip from
 * the extension host to the workbench and back (`setContext`, as Select Agent's list is a round trip too), timed
 * from when it was due, so a blocked event loop counts as well as a choked channel. The chat and the terminal still
 * show the command's output, bounded by the limit.
 *
 * Each terminal flood runs twice: with the chat only, and with the command's VS Code terminal ("Open in Terminal",
 * the mirror) opened as soon as its card shows. Opening a VS Code terminal costs the workbench's thread a stall of
 * its own (xterm, its WebGL renderer), and so does showing live output; so after each mirror case the same probe
 * runs over the same span while VS Code opens a terminal on a pseudoterminal of nothing of ours, repainted as the
 * mirror repaints a flood (a screenful four times a second): the mirror case is held to that baseline plus what is
 * ours. The first terminal of a window also loads xterm's code:
 * that cold start is measured first, as its own baseline line, so that every mirror case and its baseline open a
 * warm terminal alike.
 *
 * With ACP_FLOOD_FIGURES=<file> each case appends its figures to that file (JSON lines): the bench's real-VS Code
 * flood lines (bench/vscode-floods.ts) run this suite and report them. To tell the paths apart:
 * ACP_FLOOD_PROFILE=<prefix> writes a CPU profile of the extension host per case, ACP_FLOOD_NO_CHAT=1 hides the chat
 * view.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { DEFAULT_ROWS, FLOOD_WINDOW_MS, forTerminal, REPAINT } from '../../src/editor/terminal-write-pacer';
import { MAX_MESSAGE_CHARS } from '../../src/shared/limits';
import { entriesOf } from '../../src/shared/selectors';
import type { TranscriptState } from '../../src/shared/model';
import { agentText, turnEnds } from '../support/fault-cases';
import { TRIGGER } from '../support/fault-run';
import { floodProbeFigures, probeAnswers, type FloodProbeFigures } from '../support/flood-probe';
import { scriptedAgentPath } from '../support/repo-root';
import { api, sleep, waitFor } from './helpers';

const AGENT = 'Raw';
/**
 * A guard against the host wedging again (before the terminal mirror was paced and the poster flow-controlled, a
 * probe waited 34-69 s). The target is 200 ms and is not met yet; `npm run bench` (BENCH_ONLY=floods) reports it
 * against that target. The wait is on the workbench's thread (the probe is answered there), not the extension
 * host's (its CPU profile shows no task over 200 ms): in code-server the chat's webview shares that thread. Fixed:
 * the chat's layout of a flood (at most 32,000 new characters per frame, a terminal card's output in blocks that
 * skip layout off screen) and the posts' size (64,000 characters each), which took the 20 MB message from 9.7-17.9 s
 * to 1.1-2.7 s (2-core machine at load 15-25). Left, in the terminal cases: VS Code's own terminal opening (its
 * xterm and WebGL renderer, 2-4 s under that load) and parsing the paced mirror writes. Raise this bound's
 * strictness as the figure improves; never loosen it.
 *
 * Since then the extension host's own part (hostBlockMaxMs in the figures: its longest event-loop block) was cut
 * at its causes: a 16 MB terminal/output answer serialized in one go (1.2 s, now written a slice per turn), a
 * message backlog re-flattened on every post, a 4 MB message re-snapshotted every 512 KB of its chunks; it reads
 * 260-375 ms at load 5-9 (GC and VS Code's own spawns included). The probe's wait is still the workbench's
 * thread in the terminal cases (xterm's parsing and WebGL, VS Code's own), seconds at that load, so the bound
 * stays 3 s: a 200 ms bound could not be shown stable on this machine while it ran at load 5-10.
 *
 * The bound is now one per kind of case, so that each can be raised on its own: the chat only (CHAT_BOUND_MS) and
 * the command's terminal open (MIRROR_BOUND_MS; its bench target is relative to VS Code's own terminal opening,
 * measured after it over the same span). The mirror's writes during a flood are now a screenful repainted in place
 * four times a second (nothing scrolls), and what it draws from the transcript is what the terminal keeps. Neither
 * bound could be shown stable below 3 s yet: this round's runs were at load 6-20 (the physical-limit line at 64-67k
 * updates/s against 200-245k idle), where a chat-only probe waited up to 3.1 s. A mirror case is allowed its
 * baseline's longest wait on top (VS Code's own stall for opening a terminal, not ours), as its bench line is.
 *
 * Chat only, next: a Chromium trace of the workbench's page (ACP_WORKBENCH_TRACE) during the 1,000-limit flood showed
 * its thread in tasks of 0.5-1.1 s, each one frame of the chat: 180-340 ms of script rebuilding the terminal card and
 * 300-400 ms of text layout (load 20). The card kept 64,000 characters whatever the agent's limit, so the host posted
 * a 66 KB display at each flood window (10 such posts in that case) for the chat to lay out again. Now the card keeps
 * what the agent keeps (at least 2,000 characters: shared/model.ts terminalDisplayChars; the posts of that case are
 * 2.2 KB), the poster judges a flood by what arrived rather than by its trimmed post, and the card's blocks are
 * 1,000 characters. The flood's own length (0.5-2.8 s, up to 9 s at load 18) is the machine's load: the host drains
 * the pipe as fast as its share of the 2 cores allows, and the probe's figure follows how many redraws fall in it.
 *
 * A fast machine was through the 50 MB in 0.1-0.3 s, a redraw or two, which tested nothing: the command now paces
 * itself to last at least 4 s (raw-faults.ts FLOOD_MIN_MS; it only waits when ahead of that pace, so a slow machine's
 * flood is as before). And the card no longer rebuilds itself at each post: it updates in place and, while the
 * command runs and the user is not reading back, draws only the newest lines its box shows (terminal-view.ts).
 */
const CHAT_BOUND_MS = 3_000;
const MIRROR_BOUND_MS = 3_000;
/** The flood command's line (test/fixtures/agents/raw-faults.ts): what a live baseline terminal repaints. */
const FLOOD_LINE = 'flood lines of terminal output!\n';
/** The cold baseline's span: VS Code's first terminal is up well within it on this machine. */
const COLD_BASELINE_SPAN_MS = 6_000;
const PROBE_EVERY_MS = 100;
/**
 * The probe runs at least this long after the prompt, even when the turn is over sooner: with a 1,000-byte limit the
 * host was through 50 MB in 0.5 s (4 probes) on this machine, so a machine twice as fast would leave too few probes
 * to tell, and what the chat still has to draw after the turn's end is part of what a command waits behind.
 */
const MIN_PROBED_MS = 2_000;

interface FloodCase {
  readonly name: string;
  readonly fault: string;
  readonly env: Record<string, string>;
  /** The command's VS Code terminal is opened from its card as soon as the card shows. */
  readonly mirror: boolean;
  /** What the chat shows once the flood is over. */
  readonly check: (state: TranscriptState) => void;
}

const terminalShown = (limit: number | undefined) => (state: TranscriptState) => {
  const report = /report: (.*)$/s.exec(agentText(state))?.[1] ?? '';
  assert.match(report, /^exit ok \{"exitCode":0/, report);
  const [kept] = /output (\d+) chars/.exec(report)?.slice(1) ?? [];
  if (limit !== undefined) assert.ok(Number(kept) <= limit, `the agent got at most its limit: ${report}`);
  assert.match(report, /truncated true/);
  assert.match(report, /flood-done\\n"$/, 'the agent got the last line');
  const record = Object.values(state.terminals)[0];
  assert.ok(record, 'the chat shows the terminal');
  assert.deepEqual(record.exit, { exitCode: 0, signal: null });
  assert.ok(record.trimmed, 'the chat says earlier output was not kept');
  assert.match(record.output, /flood lines of terminal output!\nflood-done\n$/, 'the chat shows the end of the output');
};

const terminalFlood = (limit: number | undefined, mirror: boolean): FloodCase => ({
  name: `50 MB terminal flood, ${limit === undefined ? 'default limit' : `outputByteLimit ${limit.toLocaleString('en-US')}`}, ${mirror ? 'terminal open' : 'chat only'}`,
  fault: 'flood-terminal',
  env: limit === undefined ? {} : { ACP_RAW_FLOOD_LIMIT: String(limit) },
  mirror,
  check: terminalShown(limit),
});

const CASES: readonly FloodCase[] = [
  terminalFlood(1_000, false),
  terminalFlood(undefined, false),
  {
    name: '20 MB agent message',
    fault: 'flood-message',
    env: {},
    mirror: false,
    check: (state) => {
      // The chat keeps a message up to MAX_MESSAGE_CHARS and says it was cut; the turn ends normally.
      const text = agentText(state);
      assert.ok(text.startsWith('flood words flood words'), text.slice(0, 100));
      assert.ok(text.length >= MAX_MESSAGE_CHARS - 4096, `the message is kept up to the cap (${text.length} chars)`);
      assert.deepEqual(turnEnds(state).at(-1)?.outcome, { type: 'stopped', stopReason: 'end_turn' });
    },
  },
  terminalFlood(1_000, true),
  terminalFlood(undefined, true),
];

async function configureAgent(fault: string, env: Record<string, string>): Promise<void> {
  const agent = {
    command: process.execPath,
    args: [path.join(path.dirname(scriptedAgentPath()), 'raw-agent.mjs')],
    env: { ACP_RAW_FAULT: fault, ...env },
  };
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update('agents', { [AGENT]: agent }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', AGENT, vscode.ConfigurationTarget.Global);
}

/**
 * A probe falls due every PROBE_EVERY_MS until `done` settles, whether or not the ones before have answered (a
 * command the user gives does not wait for the last one either): each one's answer time, counted from when it was
 * due, so a blocked event loop (a timer firing late) counts as well as a choked channel, and a long stall shows as
 * every probe that fell due in it, not as one.
 */
async function probeUntil(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const answers: Promise<number>[] = [];
  let due = performance.now();
  while (!finished) {
    due += PROBE_EVERY_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    // Due times that passed while the loop was blocked fall due now, late by the time they waited.
    for (const late = performance.now(); due <= late && !finished; due += PROBE_EVERY_MS) answers.push(probe(due, answers.length));
    due -= PROBE_EVERY_MS;
  }
  return Promise.all(answers);
}

async function probe(due: number, index: number): Promise<number> {
  await vscode.commands.executeCommand('setContext', 'acpClient.floodProbe', index);
  return performance.now() - due;
}

/**
 * VS Code opening a terminal on a pseudoterminal of nothing of ours, with the probe running over `spanMs` as it runs
 * over a flood: the workbench's own cost of a terminal, the baseline of the mirror cases. Quiet (a few lines) for the
 * window's first terminal; for a mirror case, live as the mirror is through a flood: a screenful of the flood's lines
 * repainted in place every FLOOD_WINDOW_MS (terminal-write-pacer.ts), so that what xterm costs to show any live
 * terminal at that pace (its parse, its WebGL renderer's draws and the frames they commit: 1.6 s of the workbench
 * thread's 8 s in Commit alone in a trace of the default-limit mirror case at 0.4) is told from what is ours.
 */
async function terminalOpenProbes(spanMs: number, live: boolean): Promise<number[]> {
  const writes = new vscode.EventEmitter<string>();
  let opened = (): void => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  let rows = DEFAULT_ROWS;
  let repaints: ReturnType<typeof setInterval> | undefined;
  const pty: vscode.Pseudoterminal = {
    onDidWrite: writes.event,
    open: (dimensions) => {
      rows = dimensions?.rows ?? rows;
      writes.fire('A terminal of nothing of ours: the baseline of the flood probe.\r\nline 2\r\nline 3\r\n');
      if (live) repaints = setInterval(() => writes.fire(`${REPAINT}${forTerminal(FLOOD_LINE.repeat(rows))}`), FLOOD_WINDOW_MS);
      opened();
    },
    setDimensions: (dimensions) => (rows = dimensions.rows),
    close: () => clearInterval(repaints),
  };
  const answers = probeUntil(sleep(spanMs));
  const terminal = vscode.window.createTerminal({ name: 'Baseline', pty });
  terminal.show();
  const result = await answers;
  clearInterval(repaints);
  assert.equal(await Promise.race([open.then(() => 'opened'), sleep(10_000).then(() => 'not opened')]), 'opened');
  terminal.dispose();
  writes.dispose();
  return result;
}

/** Closes every terminal and the panel, so the next terminal opens as it would the first time (xterm's code aside). */
async function closeTerminals(): Promise<void> {
  for (const terminal of vscode.window.terminals) terminal.dispose();
  await vscode.commands.executeCommand('workbench.action.closePanel');
  // What the workbench still has to do after a flood (the terminal's last redraw, the chat's layout) is not the baseline's.
  await sleep(2_000);
}

/** With ACP_FLOOD_PROFILE, a CPU profile of the extension host during the flood (evidence for where it goes). */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const inspector = await import('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return async (file) => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

describe('host under floods in VS Code: a command answers while output streams', function () {
  this.timeout(240_000);
  let conversation: string | undefined;

  afterEach(async () => {
    const client = await api();
    await client.stopAgents();
    if (conversation) await client.removeConversation(conversation);
    conversation = undefined;
  });

  const record = (figures: FloodProbeFigures): void => {
    if (process.env['ACP_FLOOD_FIGURES']) appendFileSync(process.env['ACP_FLOOD_FIGURES'], `${JSON.stringify(figures)}\n`);
    console.log(`      ${JSON.stringify(figures)}`);
  };

  const showChat = async (): Promise<string> => {
    const client = await api();
    await vscode.commands.executeCommand('acpClient.newSession');
    const shown = client.shownConversation();
    assert.ok(shown);
    await vscode.commands.executeCommand('acpClient.chat.focus');
    await client.chatViewReady();
    if (process.env['ACP_FLOOD_NO_CHAT']) await vscode.commands.executeCommand('workbench.view.explorer');
    return shown;
  };

  it("baseline: VS Code opens the window's first terminal (cold) on a quiet pseudoterminal, probed the same way", async () => {
    const client = await api();
    await client.stopAgents();
    await configureAgent('flood-message', {});
    conversation = await showChat();
    const idle = await probeUntil(sleep(1_000));
    const answers = await terminalOpenProbes(COLD_BASELINE_SPAN_MS, false);
    await closeTerminals();
    const figures = floodProbeFigures(
      "VS Code's first terminal of the window (cold), quiet",
      'baseline',
      answers,
      idle,
      COLD_BASELINE_SPAN_MS,
      0,
    );
    record(figures);
  });

  for (const flood of CASES) {
    const bound = flood.mirror ? MIRROR_BOUND_MS : CHAT_BOUND_MS;
    it(`probe: ${flood.name}: a command answers within ${bound} ms${flood.mirror ? " over VS Code's own terminal opening" : ''}`, async () => {
      const client = await api();
      await client.stopAgents();
      await configureAgent(flood.fault, flood.env);
      conversation = await showChat();
      await waitFor(client, (s) => s.agent.phase === 'ready');
      const idle = await probeUntil(sleep(1_000));
      const ends = turnEnds(client.transcript()).length;
      const settled = waitFor(client, (s) => s.turn.phase === 'idle' && turnEnds(s).length === ends + 1, 200_000);
      const started = performance.now();
      const probedMs = settled.then(() => performance.now() - started);
      assert.deepEqual(await client.sendPrompt(TRIGGER), { accepted: true });
      // The command's VS Code terminal, opened from its card as soon as the card shows it.
      if (flood.mirror)
        void waitFor(client, (s) => Object.keys(s.terminals).length > 0).then((s) => {
          const terminalId = Object.keys(s.terminals)[0];
          if (terminalId) client.postFromChat({ type: 'open_terminal', terminalId });
        });
      const profile = process.env['ACP_FLOOD_PROFILE'] ? await startProfile() : undefined;
      const hostDelay = monitorEventLoopDelay({ resolution: 10 });
      hostDelay.enable();
      const answers = await probeUntil(Promise.all([settled, sleep(MIN_PROBED_MS)]));
      hostDelay.disable();
      const state = await settled;
      if (profile)
        await profile(
          `${process.env['ACP_FLOOD_PROFILE']}-${flood.fault}-${flood.env['ACP_RAW_FLOOD_LIMIT'] ?? 'default'}${flood.mirror ? '-mirror' : ''}.cpuprofile`,
        );
      const floodMs = await probedMs;
      flood.check(state);
      assert.ok(entriesOf(state).length > 0);
      if (flood.mirror)
        // Named after the tool call, or the command line when the card showed before the tool call did.
        assert.ok(
          vscode.window.terminals.some((terminal) => terminal.name.startsWith('ACP: ')),
          'the terminal is open',
        );
      let figures = floodProbeFigures(flood.name, flood.mirror ? 'mirror' : 'chat', answers, idle, floodMs, hostDelay.max / 1e6);
      if (flood.mirror) {
        // VS Code's own cost of a terminal, probed over the same span: the mirror case's baseline.
        await closeTerminals();
        const baseline = probeAnswers(await terminalOpenProbes(Math.max(floodMs, MIN_PROBED_MS), true));
        await closeTerminals();
        figures = { ...figures, baseline };
      }
      record(figures);
      // A flood over before the first probe was due would prove nothing about a wedge.
      assert.ok(figures.probes >= 3, `too few probes to tell: ${JSON.stringify(figures)}`);
      // With the terminal open, VS Code's own stall for a terminal (its baseline over the same span) is not ours.
      const allowed = bound + (figures.baseline?.maxMs ?? 0);
      assert.ok(
        figures.maxMs <= allowed,
        `a probe waited ${Math.round(figures.maxMs)} ms (allowed ${Math.round(allowed)}): ${JSON.stringify(figures)}`,
      );
    });
  }
});
