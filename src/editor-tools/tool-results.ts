/** How tool answers look to the model: 1-based lines and columns, JSON text, an error as an MCP tool error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capString } from './bounds';
import type { Position, Problem, Range } from './ports';
import { errorMessage } from '../shared/error-text';

export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export function spanOf(range: Range): Span {
  return { line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

/** The model's 1-based line and column as the editor's 0-based position. */
export function positionAt(line: number, column: number): Position {
  return { line: line - 1, character: column - 1 };
}

export function shownProblem(problem: Problem): Record<string, unknown> {
  return {
    path: problem.path,
    ...spanOf(problem.range),
    severity: problem.severity,
    ...(problem.source ? { source: capString(problem.source, 200) } : {}),
    ...(problem.code ? { code: capString(problem.code, 200) } : {}),
    message: capString(problem.message),
  };
}

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export function errorResult(error: unknown): CallToolResult {
  const message = errorMessage(error);
  return { isError: true, content: [{ type: 'text', text: capString(message, 2000) }] };
}
