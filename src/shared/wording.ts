/** What the chat says in more than one place, said one way. */

/** Agents never start in an untrusted workspace: they read and write files and run commands. */
export const UNTRUSTED_WORKSPACE = {
  title: 'Agents do not run in an untrusted workspace',
  detail: 'Trust this workspace to start an agent: agents read and write files and run commands.',
} as const;

/** Registry installs and updates wait for trust too: what gets installed would run in this workspace. */
export const UNTRUSTED_INSTALL = {
  title: 'Agents are not installed, updated or started in Restricted Mode',
  detail: 'Trust this workspace to add or update agents: an installed agent runs here with your permissions. Nothing was changed.',
} as const;
