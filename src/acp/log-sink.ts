/** Where the ACP layer logs; the caller decides (a VS Code log channel, the console, nothing). */
export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  trace(message: string): void;
}

export type TraceLevel = 'off' | 'messages' | 'verbose';
