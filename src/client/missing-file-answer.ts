/**
 * How a read of a missing file is answered. The spec's answer is the "resource not found" error, and agents that
 * follow it tell a new file from an unreadable one by that error. Gemini CLI (0.61) checks whether a file exists
 * by reading it before every write, but its bundled ACP SDK rejects with the bare JSON-RPC error object and its
 * file service only recognizes an `Error` whose message says "Resource not found"/ENOENT: no error response can
 * ever read as "missing" to it, so every new file it writes fails with "Error checking existing file". It treats
 * empty content as a file to overwrite, which its write then creates through `fs/write_text_file`.
 */
export type MissingFileAnswer = 'not_found_error' | 'empty_content';

/** Agents (by the `agentInfo.name` of their `initialize` answer) that cannot recognize the not-found error. */
const EMPTY_CONTENT_AGENTS: ReadonlySet<string> = new Set(['gemini-cli']);

export function missingFileAnswerFor(agentName: string | undefined): MissingFileAnswer {
  return agentName !== undefined && EMPTY_CONTENT_AGENTS.has(agentName) ? 'empty_content' : 'not_found_error';
}
