/**
 * One row of the attack matrix (README, Security): an attack written the way it would arrive (a cloned repository's
 * settings, a registry index, an agent's message, a path on disk) and what the user sees. Each area's suite keeps
 * its rows in a list of these and runs one test per row; every row asserts that nothing ran, nothing was written
 * outside, no secret left the process it was meant for, and the user was told.
 */
export interface AttackCase {
  /** The attack, in a few words: the matrix's first column. */
  readonly attack: string;
  /** How the test drives it: through the installed extension in the real VS Code, or on the host path. */
  readonly driven: string;
  /** What the user sees. */
  readonly sees: string;
}
