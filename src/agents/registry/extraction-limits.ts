/**
 * Caps on what unpacking one archive may write, so a bomb (a few KB that expand to terabytes, or millions of empty
 * entries) stops as soon as it crosses one, never after it has filled the disk. The budget is charged as bytes
 * are written, entry by entry, and throws the moment a cap is crossed; the caller then removes the unpack folder.
 */

export interface ExtractionLimits {
  /** Files, folders and links together. */
  readonly maxEntries: number;
  /** Bytes written to disk, all files together. */
  readonly maxUnpackedBytes: number;
  /** Bytes written per byte of the archive file, checked once more than `ratioGraceBytes` were written. */
  readonly maxRatio: number;
  /** A tiny archive may legitimately expand a lot (a sparse file, a tree of zeros): the ratio waits until then. */
  readonly ratioGraceBytes: number;
}

/**
 * Real agent builds on the ACP registry are one binary or a plain tree: the biggest seen unpack to a few hundred MB
 * (bun or node single-file builds, PyInstaller trees) in at most a few thousand files, compressed 2 to 5 times.
 * Each cap leaves an order of magnitude of room above that; deflate cannot exceed about 1032x, and a whole archive
 * of real code compressing more than 100x is a bomb, not a build.
 */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxEntries: 100_000,
  maxUnpackedBytes: 2 * 1024 ** 3,
  maxRatio: 100,
  ratioGraceBytes: 16 * 1024 ** 2,
};

export class ArchiveTooBigError extends Error {
  constructor(what: string) {
    super(`The archive is too big to unpack: ${what}; nothing was installed.`);
  }
}

export class UnpackBudget {
  private entries = 0;
  private written = 0;

  constructor(
    private readonly limits: ExtractionLimits,
    /** The size of the archive file (what was downloaded and verified). */
    private readonly archiveBytes: number,
  ) {}

  /** Charges one entry (before anything of it is written). */
  entry(): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) throw new ArchiveTooBigError(`more than ${this.limits.maxEntries} entries`);
  }

  /** Charges bytes about to be written; throws before they are. */
  bytes(count: number): void {
    this.written += count;
    // The ratio first: when one chunk crosses both, "a bomb" says more than "too big".
    if (this.written > this.limits.ratioGraceBytes && this.written > this.limits.maxRatio * Math.max(1, this.archiveBytes))
      throw new ArchiveTooBigError(`it expands more than ${this.limits.maxRatio} times`);
    if (this.written > this.limits.maxUnpackedBytes)
      throw new ArchiveTooBigError(`more than ${sizeText(this.limits.maxUnpackedBytes)} unpacked`);
  }
}

const sizeText = (bytes: number): string => {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return `${bytes} bytes`;
};
