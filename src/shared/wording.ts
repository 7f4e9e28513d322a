/** What the chat says in more than one place, said one way. */

/** Agents never start in an untrusted workspace: they read and write files and run commands. */
export const UNTRUSTED_WORKSPACE = {
  title: 'Agents do not run in an untrusted workspace',
  detail: 'Trust this workspace to start an agent: agents read and write files and run commands.',
} as const;
