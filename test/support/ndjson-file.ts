/**
 * The whole records of an NDJSON log another process may still be appending to. A test polls such logs while the
 * writer runs, so the text after the last newline can be half a record (CI once read one from the wire tap and
 * failed with "Unexpected end of JSON input"); only newline-ended records are whole.
 */
import { existsSync, readFileSync } from 'node:fs';

export function wholeNdjsonRecords(file: string): string[] {
  if (!existsSync(file)) return [];
  const records = readFileSync(file, 'utf8').split('\n');
  records.pop();
  return records.filter((record) => record !== '');
}
