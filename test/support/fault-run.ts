/**
 * Drives one fault of the matrix to the point where the chat has settled, as a user would: start the faulty agent,
 * send the prompt that triggers it, answer its dialog, cancel, press Retry or Stop where the chat offers them.
 * Shared by the unit and the integration suites (each gives its own FaultChat).
 */
import * as assert from 'node:assert/strict';
import type { TranscriptState } from '../../src/shared/model';
import { agentText, notices, turnEnds, type FaultCase, type FaultChat } from './fault-cases';

/** The prompt the raw agent answers with its fault (any other prompt is echoed). */
export const TRIGGER = 'trigger the fault';

const notRespondingCount = (state: TranscriptState): number =>
  notices(state).filter((notice) => /is not responding/.test(notice.title)).length;

export async function runFault(chat: FaultChat, fault: FaultCase): Promise<TranscriptState> {
  const noticesBefore = notices(chat.state()).length;
  const endsBefore = turnEnds(chat.state()).length;
  if (fault.trigger === 'start') {
    await chat.startAgent();
    return chat.state();
  }
  if (fault.trigger === 'unresponsive') {
    const starting = chat.startAgent();
    const before = notRespondingCount(chat.state());
    await chat.waitFor((s) => notRespondingCount(s) === before + 1, 20_000);
    // Retry: a fresh start-up, with its own deadline (the same agent does not answer this time either).
    chat.retryStart();
    await chat.waitFor((s) => notRespondingCount(s) === before + 2, 20_000);
    await chat.stopAgent();
    await starting;
    return chat.state();
  }
  await chat.startAgent();
  assert.deepEqual(await chat.sendPrompt(TRIGGER), { accepted: true });
  if (fault.permissionAnswer !== undefined) await chat.answerPermission(fault.permissionAnswer);
  if (fault.trigger === 'cancel') {
    await chat.waitFor((s) => /working until cancelled|thinking forever/.test(agentText(s)));
    chat.cancelTurn();
    const offered = await chat.waitFor(
      (s) => s.turn.phase === 'idle' || notices(s).some((notice) => /has not stopped/.test(notice.title)),
      20_000,
    );
    if (offered.turn.phase !== 'idle') await chat.stopAgent();
  }
  // An agent that died is settled once its notice (with Restart) is up: it comes right after the failed turn.
  return chat.waitFor(
    (s) =>
      s.turn.phase === 'idle' &&
      turnEnds(s).length === endsBefore + 1 &&
      (s.agent.phase !== 'exited' ||
        notices(s)
          .slice(noticesBefore)
          .some((notice) => notice.action === 'restart_agent')),
    20_000,
  );
}

/** What the raw agent reported of the client's answers ("report: ..."), from the transcript. */
export function reportOf(state: TranscriptState): string {
  return /report: (.*)$/s.exec(agentText(state))?.[1] ?? '';
}
