/**
 * The tokens the editor's server answers, and who presents each: the process's own, and one per conversation, given
 * in that conversation's `session/new` (load, resume). An action then knows which conversation called it, and asks on
 * that conversation's card even while another conversation of the same agent runs a turn too.
 */
import { newToken, tokenMatches } from './bearer-token';

/** Who called: a conversation's key, or none (the process's token: no conversation named). */
export interface Caller {
  readonly conversation?: string;
}

export class CallerTokens {
  readonly processToken = newToken();
  private readonly conversations = new Map<string, string>();

  /** A fresh token for one conversation (its key: the session endpoint's). */
  issue(conversation: string): string {
    const token = newToken();
    this.conversations.set(token, conversation);
    return token;
  }

  /** Who presents this token; undefined when it is none of ours. Every token is compared in constant time. */
  identify = (presented: string | undefined): Caller | undefined => {
    let caller: Caller | undefined = tokenMatches(presented, this.processToken) ? {} : undefined;
    for (const [token, conversation] of this.conversations) if (tokenMatches(presented, token)) caller = { conversation };
    return caller;
  };
}
