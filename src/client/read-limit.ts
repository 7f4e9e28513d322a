/** The error an agent gets when an `fs/read_text_file` answer would exceed the read cap. */

export function readTooLargeMessage(path: string, bytes: number, cap: number, windowed: boolean): string {
  const size = windowed ? `more than ${sizeOf(cap)}` : sizeOf(bytes);
  const what = windowed ? 'the requested lines are' : 'the file is';
  return `Cannot read ${path}: ${what} ${size}, over the client's read limit of ${sizeOf(cap)} (setting acpClient.limits.maxReadMB). Read it in parts with line and limit.`;
}

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
