/**
 * vscode-jsonrpc cancels with LSP's `$/cancelRequest {id}`; ACP's name is `$/cancel_request {requestId}`. The
 * library bridge translates both ways, so the library's own cancellation machinery (tokens for our requests,
 * tokens handed to our handlers) works unchanged on the ACP wire.
 */
import type { Message } from 'vscode-jsonrpc';

const LIBRARY_METHOD = '$/cancelRequest';
const ACP_METHOD = '$/cancel_request';

interface CancelNotification {
  jsonrpc: string;
  method: string;
  params?: { id?: unknown; requestId?: unknown };
}

function isNotificationNamed(message: Message, method: string): message is Message & CancelNotification {
  return (message as { method?: unknown }).method === method && !('id' in message);
}

export function isLibraryCancel(message: Message): boolean {
  return isNotificationNamed(message, LIBRARY_METHOD);
}

export function toWireCancel(message: Message): Message {
  if (!isNotificationNamed(message, LIBRARY_METHOD)) return message;
  const wire: CancelNotification = { jsonrpc: '2.0', method: ACP_METHOD, params: { requestId: message.params?.id } };
  return wire;
}

export function fromWireCancel(message: Message): Message {
  if (!isNotificationNamed(message, ACP_METHOD)) return message;
  const cancel: CancelNotification = { jsonrpc: '2.0', method: LIBRARY_METHOD, params: { id: message.params?.requestId } };
  return cancel;
}
