/**
 * Compile-time only: the MCP servers we send must be what the official SDK's types call an `McpServer`, so a
 * change in the protocol's shape fails `tsc` here instead of an agent refusing `session/new`.
 */
import type * as sdk from '@agentclientprotocol/sdk';
import type { McpServerWire } from './mcp-wire';

/** Ours are readonly (we never mutate them); the SDK's arrays are not: compare the shapes, not the modifiers. */
type Writable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };
type Sends<Ours, Theirs> = [Writable<Ours>] extends [Theirs] ? true : false;
type Check<T extends true> = T;

export type McpWireConformance = [
  Check<Sends<Extract<McpServerWire, { command: string }>, sdk.McpServer>>,
  Check<Sends<Extract<McpServerWire, { type: 'http' | 'sse' }> & { type: 'http' }, sdk.McpServer>>,
  Check<Sends<Extract<McpServerWire, { type: 'http' | 'sse' }> & { type: 'sse' }, sdk.McpServer>>,
];
