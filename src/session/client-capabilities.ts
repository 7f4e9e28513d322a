/** What we tell agents we serve. Only what really works: an advertised capability is a promise. */
export const CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
} as const;
