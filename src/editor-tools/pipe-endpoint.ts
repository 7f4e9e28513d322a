/**
 * The same server on a local socket (a Unix socket in a private 0700 folder, or a named pipe on Windows) for the
 * stdio bridge that stdio-only agents run. A connection must send one of the process's tokens as its first line, within a few
 * seconds; after it, the socket carries MCP's stdio framing (one JSON-RPC message per line) both ways, served by
 * its own MCP server instance.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Caller } from './caller-tokens';

const HELLO_TIMEOUT_MS = 5_000;
const MAX_HELLO_BYTES = 256;

export interface PipeEndpoint {
  readonly address: string;
  close(): Promise<void>;
}

export async function listenPipe(
  identify: (presented: string | undefined) => Caller | undefined,
  serverFor: (caller: Caller) => McpServer,
): Promise<PipeEndpoint> {
  const { address, cleanup } = await pipeAddress();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    void greet(socket, identify).then((caller) => {
      if (!caller) return void socket.destroy();
      const mcp = serverFor(caller);
      const transport = new StdioServerTransport(socket, socket);
      socket.on('close', () => void mcp.close());
      // greet() paused the socket so nothing after the token is lost before the transport listens.
      void mcp.connect(transport).then(() => socket.resume());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cleanup();
    },
  };
}

/** Reads the first line; who presents it when it is one of our tokens. What follows it is put back for the MCP transport. */
function greet(socket: Socket, identify: (presented: string | undefined) => Caller | undefined): Promise<Caller | undefined> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => finish(undefined), HELLO_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const newline = received.indexOf(0x0a);
      if (newline === -1) {
        if (received.length > MAX_HELLO_BYTES) finish(undefined);
        return;
      }
      const presented = received.subarray(0, newline).toString('utf8').trim();
      const rest = received.subarray(newline + 1);
      const caller = identify(presented);
      finish(caller);
      if (caller && rest.length > 0) socket.unshift(rest);
    };
    const finish = (caller: Caller | undefined): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      resolve(caller);
    };
    const onClose = (): void => finish(undefined);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

async function pipeAddress(): Promise<{ address: string; cleanup: () => Promise<void> }> {
  if (process.platform === 'win32')
    return { address: `\\\\.\\pipe\\acp-editor-tools-${randomBytes(16).toString('hex')}`, cleanup: () => Promise.resolve() };
  // mkdtemp makes the folder 0700: no other user can reach the socket in it.
  const dir = await mkdtemp(path.join(tmpdir(), 'acp-et-'));
  return { address: path.join(dir, 's'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}
