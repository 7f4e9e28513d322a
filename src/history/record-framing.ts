/**
 * One record per line: eight hex digits of the CRC-32 of the JSON text, a space, the JSON text, a newline.
 * A process killed mid-write leaves a last line that is cut short; its checksum no longer matches (or its
 * newline is missing and the JSON is cut), so the reader drops it instead of loading half a record.
 */
import { crc32 } from 'node:zlib';

const CRC_DIGITS = 8;

export function frameRecord(value: unknown): string {
  const json = JSON.stringify(value);
  return `${crc32(json).toString(16).padStart(CRC_DIGITS, '0')} ${json}\n`;
}

export interface ReadRecords {
  readonly records: unknown[];
  /** Bytes after the last good record (a torn write); 0 for a clean file. */
  readonly droppedBytes: number;
}

/**
 * Reads records up to the first one that is cut or fails its checksum. Everything after it is dropped too:
 * writers never append after a bad record (each opening starts a new file), so a bad record is a torn tail.
 */
export function readRecords(buffer: Buffer): ReadRecords {
  const records: unknown[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const newline = buffer.indexOf(0x0a, offset);
    const end = newline === -1 ? buffer.length : newline;
    const record = parseLine(buffer.toString('utf8', offset, end));
    if (record === undefined) break;
    records.push(record.value);
    offset = newline === -1 ? buffer.length : newline + 1;
  }
  return { records, droppedBytes: buffer.length - offset };
}

function parseLine(line: string): { value: unknown } | undefined {
  if (line.length <= CRC_DIGITS + 1 || line[CRC_DIGITS] !== ' ') return undefined;
  const expected = Number.parseInt(line.slice(0, CRC_DIGITS), 16);
  const json = line.slice(CRC_DIGITS + 1);
  if (!/^[0-9a-f]{8}$/.test(line.slice(0, CRC_DIGITS)) || crc32(json) !== expected) return undefined;
  try {
    return { value: JSON.parse(json) };
  } catch {
    return undefined;
  }
}
