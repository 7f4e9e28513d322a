/**
 * The server on streamable HTTP, for agents that advertise `mcpCapabilities.http`: bound to 127.0.0.1 only, on a
 * port the system picks, answering only requests that carry one of this process's bearer tokens and name the loopback
 * address as their Host (a web page rebinding a DNS name to 127.0.0.1 is refused even before the token). Stateless:
 * every POST gets a fresh MCP server instance, so nothing one request leaves behind outlives it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { bearerOf } from './bearer-token';
import type { Caller } from './caller-tokens';

export const LOOPBACK = '127.0.0.1';
/** A JSON-RPC body larger than this is refused before it is read whole. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

export async function listenHttp(
  identify: (presented: string | undefined) => Caller | undefined,
  serverFor: (caller: Caller) => McpServer,
): Promise<HttpEndpoint> {
  const http = createServer((request, response) => void answer(request, response, identify, port(), serverFor));
  // Idle keep-alive sockets must not hold close() open when the agent stops.
  http.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, LOOPBACK, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (): number => (http.address() as AddressInfo).port;
  return { url: `http://${LOOPBACK}:${port()}/mcp`, close: () => closeServer(http) };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  identify: (presented: string | undefined) => Caller | undefined,
  port: number,
  serverFor: (caller: Caller) => McpServer,
): Promise<void> {
  const host = request.headers.host;
  if (host !== `${LOOPBACK}:${port}` && host !== `localhost:${port}`) return refuse(response, 403, 'Forbidden: wrong Host');
  // MCP clients are not browsers: a request with an Origin came from a web page.
  if (request.headers.origin !== undefined) return refuse(response, 403, 'Forbidden: browser requests are not served');
  const caller = identify(bearerOf(request.headers.authorization));
  if (!caller) {
    response.setHeader('WWW-Authenticate', 'Bearer');
    return refuse(response, 401, 'Unauthorized');
  }
  if (new URL(request.url ?? '/', `http://${LOOPBACK}`).pathname !== '/mcp') return refuse(response, 404, 'Not found');
  // Stateless: there is no stream to resume (GET) nor a session to end (DELETE).
  if (request.method !== 'POST') {
    response.setHeader('Allow', 'POST');
    return refuse(response, 405, 'Method not allowed');
  }
  const length = Number(request.headers['content-length'] ?? '0');
  if (length > MAX_BODY_BYTES) return refuse(response, 413, 'Request too large');
  const server = serverFor(caller);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request, response);
  } catch {
    if (!response.headersSent) refuse(response, 500, 'Internal error');
  }
}

function refuse(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain' }).end(text);
}

function closeServer(http: Server): Promise<void> {
  return new Promise((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
}
