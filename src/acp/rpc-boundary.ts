/**
 * The error and cancellation types that cross the wire's boundary: what the layers above throw at the agent and
 * how they learn a request was cancelled. Only src/acp knows the transport library (lint forbids it elsewhere):
 * `RpcError` is the library's response error underneath (the connection answers it with its code, message and
 * data), the cancellation types are ours (the library's token satisfies `CancellationSignal`).
 */
import { CancellationTokenSource, ErrorCodes, ResponseError } from 'vscode-jsonrpc';

/** JSON-RPC's own error codes we answer with. */
export const RpcErrorCode = {
  InvalidRequest: ErrorCodes.InvalidRequest,
  InvalidParams: ErrorCodes.InvalidParams,
  InternalError: ErrorCodes.InternalError,
} as const;

/** An error answered to the agent as a JSON-RPC error response (code, message, data). */
export class RpcError<D = void> extends ResponseError<D> {
  constructor(code: number, message: string, data?: D) {
    super(code, message, data);
    // The library's constructor sets its own prototype on the instance, which would make `instanceof RpcError` false
    // (the read limit's error was then wrapped again as "Cannot read … Cannot read …" with the wrong code).
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** A request's cancellation, as the handlers above the wire see it. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A cancellation we raise ourselves (a dialog closed, a request given up). */
export class CancellationSource {
  private readonly source = new CancellationTokenSource();

  get signal(): CancellationSignal {
    return this.source.token;
  }

  cancel(): void {
    this.source.cancel();
  }

  dispose(): void {
    this.source.dispose();
  }
}
