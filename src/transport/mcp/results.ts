import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GameError, toGameError } from '../../service/errors';
import { problemDetails } from '../rest/problem';

// What every MCP tool answers: the result as JSON text (what a model reads) and the same object as
// structuredContent (what a program reads). A failure is a tool error (isError: true) carrying the
// service's stable code, its message and details, so an agent can correct itself and call again.

/** Tool annotations: a tool that only reads… */
export const READ = { readOnlyHint: true, openWorldHint: false } as const;
/** …and one that writes, where calling it twice with the same arguments does nothing more. */
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** A successful tool result. */
export function ok(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A tool error: the GameError's code, message and details (plus `extra`, e.g. the legal moves). */
export function failure(error: GameError, extra: Record<string, unknown> = {}): CallToolResult {
  const body = { code: error.code, message: error.message, ...problemDetails(error), ...extra };
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}\n${JSON.stringify(body)}` }],
    structuredContent: body,
  };
}

/**
 * Runs a tool's body; a GameError (or anything else, as INTERNAL) becomes a tool error. `explain`
 * may add context to a refusal (a refused move adds the legal moves).
 */
export async function run(
  body: () => Promise<Record<string, unknown>>,
  explain?: (error: GameError) => Promise<Record<string, unknown>>,
): Promise<CallToolResult> {
  try {
    return ok(await body());
  } catch (thrown) {
    const error = toGameError(thrown);
    if (!explain) return failure(error);
    const extra = await explain(error).catch(() => ({}));
    return failure(error, extra);
  }
}
