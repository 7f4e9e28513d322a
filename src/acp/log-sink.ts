/** Where the ACP layer and everything above it log; the caller decides (a VS Code log channel, the console, nothing). */
export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Wire tracing; called only when tracing is on. */
  trace(message: string): void;
}

/** `acpClient.trace`: how much of the wire the log shows. */
export type TraceLevel = 'off' | 'messages' | 'verbose';
