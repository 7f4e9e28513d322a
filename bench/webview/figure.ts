/** One benchmark figure, printed as a line with its target and ok/miss. */
export type Figure = { name: string; value: number; unit: string; target: string; ok: boolean };
