/**
 * The extension host dies without running `deactivate`, in the real VS Code (code-server with the packaged .vsix):
 * code-server's main process is stopped with SIGTERM and its extension host SIGKILLed at once, or the extension host
 * alone is SIGKILLed, while an agent runs whose own child ignores SIGTERM, SIGHUP and EOF. Within 5 s every process of the agent's tree must be gone (the agent
 * supervisor ends the group when its pipe to the host closes). The agent's processes are found by a marker in the
 * env the agent's settings give it, which its child inherits. Each row gets a fresh home and code-server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../support/browser';
import type { AttackCase } from '../support/attack-case';
import { CodeServer } from '../support/code-server';
import { e2eHome } from '../support/e2e-home';
import { processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { STUBBORN_CHILD, STUBBORN_CHILD_TAG } from '../support/stubborn-child';
import { chatFrame, LONG } from './page-steps';

/** How long the tree may outlive the host: the requirement's "within seconds". */
const TREE_ENDS_MS = 5_000;

/**
 * The scripted ACP agent (echo scenario), preceded by a stubborn child it starts, and itself deaf to SIGTERM and
 * SIGHUP: nothing but a kill of the whole group ends this tree.
 */
function stubbornAgentSource(): string {
  return [
    "for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => {});",
    `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(STUBBORN_CHILD)}], { stdio: 'ignore' });`,
    `import(${JSON.stringify(pathToFileURL(scriptedAgentPath()).href)});`,
  ].join('\n');
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function parentOf(pid: number): number {
  try {
    // The command name may hold spaces and parentheses: the fields after its last ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let at = parentOf(pid); at > 1; at = parentOf(at)) if (at === ancestor) return true;
  return false;
}

/**
 * The extension host of this code-server that runs the agent (other code-servers may run on the machine at the same
 * time, and a workbench that reconnected while starting leaves a second host under this one for a while).
 */
function extensionHostOf(serverPid: number, marker: string): number {
  const hosts: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const line = cmdline(pid);
    if (line.includes('bootstrap-fork') && line.includes('--type=extensionHost') && descendsFrom(pid, serverPid)) hosts.push(pid);
  }
  const agents = processesMarked(marker);
  const running = hosts.filter((host) => agents.some((pid) => descendsFrom(pid, host)));
  if (running.length !== 1)
    throw new Error(
      `expected one extension host under code-server ${serverPid} running the agent, found ${JSON.stringify(running)} of ${JSON.stringify(hosts)}`,
    );
  return running[0]!;
}

interface HostDeath extends AttackCase {
  /** Kills the host side, given code-server's main pid and the mark of the agent's processes; returns what was signalled (for the log). */
  readonly kill: (serverPid: number, marker: string) => string;
}

const rows: readonly HostDeath[] = [
  {
    // SIGTERM alone lets code-server shut its extension host down gently, and `deactivate` would end the agent: that
    // row could not fail. The host is SIGKILLed right after, before it runs anything, so only the supervisor can.
    attack:
      'VS Code’s server is stopped with SIGTERM and its extension host SIGKILLed at once, while an agent runs whose child ignores SIGTERM, SIGHUP and EOF',
    driven:
      'real VS Code (code-server, packaged .vsix); the chat starts the agent; SIGTERM to code-server’s main process, then at once SIGKILL to its extension host (no `deactivate` runs)',
    sees: 'every process of the agent’s tree gone within 5 s',
    kill: (serverPid, marker) => {
      const host = extensionHostOf(serverPid, marker);
      process.kill(serverPid, 'SIGTERM');
      process.kill(host, 'SIGKILL');
      return `SIGTERM to code-server (${serverPid}) and SIGKILL to its extension host (${host})`;
    },
  },
  {
    attack: 'the extension host is SIGKILLed while an agent runs whose child ignores SIGTERM, SIGHUP and EOF',
    driven: 'real VS Code; the chat starts the agent; SIGKILL to the extensionHost process found under code-server',
    sees: 'every process of the agent’s tree gone within 5 s',
    kill: (serverPid, marker) => {
      const host = extensionHostOf(serverPid, marker);
      process.kill(host, 'SIGKILL');
      return `SIGKILL to the extension host (${host})`;
    },
  },
];

async function waitFor(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function describeMarked(marker: string): string {
  return processesMarked(marker)
    .map((pid) => `${pid}: ${cmdline(pid).slice(0, 100)}`)
    .join('; ');
}

async function runRow(row: HostDeath): Promise<void> {
  const marker = `ACP_HOST_DEATH_${randomUUID()}`;
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('host-death');
  let server: CodeServer | undefined;
  try {
    server = await CodeServer.start({
      home,
      userDataDir,
      extensionsDir,
      folder: workspace,
      settings: {
        'acpClient.agents': {
          Stubborn: {
            command: process.execPath,
            args: ['-e', stubbornAgentSource()],
            env: { ACP_SCENARIO: 'echo', ACP_TEST_MARK: marker },
          },
        },
        'acpClient.defaultAgent': 'Stubborn',
      },
    });
    const serverPid = server.pid;
    if (serverPid === undefined) throw new Error('code-server has no pid');
    const browser = await launchBrowser(home, { width: 1280, height: 800 });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG * 2 });
      await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
      // Opening the chat starts the default agent, as for a user.
      await page
        .locator('.activitybar [aria-label^="ACP"]')
        .first()
        .click({ timeout: LONG * 2 });
      await chatFrame(page);
      const agentRuns = (): boolean => {
        const marked = processesMarked(marker);
        return (
          marked.some((pid) => cmdline(pid).includes(STUBBORN_CHILD_TAG) && !cmdline(pid).includes('scripted-agent')) &&
          marked.some((pid) => cmdline(pid).includes('scripted-agent'))
        );
      };
      await waitFor(agentRuns, 'the agent and its stubborn child run', LONG);
      console.log(`    marked before: ${describeMarked(marker)}`);
      const killedAt = Date.now();
      const what = row.kill(serverPid, marker);
      try {
        await waitFor(() => processesMarked(marker).length === 0, `every marked process is gone after ${what}`, TREE_ENDS_MS);
      } catch (error) {
        throw new Error(`${error instanceof Error ? error.message : String(error)}; still running: ${describeMarked(marker)}`, {
          cause: error,
        });
      }
      console.log(`    tree gone ${Date.now() - killedAt} ms after ${what}`);
    } finally {
      await browser.close().catch(() => undefined);
    }
  } finally {
    // A failing row must not leak: kill whatever the marker still finds, then code-server's group.
    for (const pid of processesMarked(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    server?.stop();
  }
}

async function main(): Promise<void> {
  let passed = 0;
  let failed = 0;
  for (const row of rows) {
    console.log(`attack: ${row.attack}`);
    try {
      await runRow(row);
      passed += 1;
      console.log(`  ✔ ${row.sees}`);
    } catch (error) {
      failed += 1;
      console.log(`  ✘ ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

void main();
