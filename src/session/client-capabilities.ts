/** What we tell agents we serve. Only what really works: an advertised capability is a promise. */
export const CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  // Sign-in methods of type `terminal`: we run the agent's own command in a VS Code terminal (session/sign-in.ts).
  auth: { terminal: true },
  // v1 asks agents to send these updates only to clients that say they present them; the chat does
  // (a banner for notices, a compaction card with its summary, plans addressed by id).
  session: { notices: {}, compaction: {} },
  // Forms are drawn in the chat (the tool call's card when scoped to one); URLs are shown whole and opened only on a click.
  elicitation: { form: {}, url: {} },
  plan: {},
} as const;
