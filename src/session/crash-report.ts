/** Words for an agent that went away, for the transcript. */
import type { AgentExit } from '../agents/agent-process';

export function describeExit(agentName: string, exit: AgentExit): { title: string; detail: string } {
  const how =
    exit.fault !== undefined && (exit.signal !== null || exit.code === 0)
      ? `stopped: ${exit.fault}`
      : exit.code === null && exit.signal === null
        ? 'could not be started'
        : exit.signal
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit.code ?? '?'}`;
  const tail = exit.stderrTail.length ? `Last output:\n${exit.stderrTail.join('\n')}` : 'It wrote nothing to stderr.';
  return { title: `${agentName} ${how}`, detail: tail };
}

/**
 * How a turn the agent's exit cut short ends in the transcript. The crash notice right after it says how the agent
 * went (describeExit's title, its last output, Restart): with that title here as well, the two read as one message
 * shown twice.
 */
export function turnCutShort(agentName: string): string {
  return `Interrupted: ${agentName} stopped while this turn ran.`;
}
