/**
 * What a tool call answers over MCP: a result `{content: [{type: 'text', text}], structuredContent}`
 * (the text is the same JSON, for clients that read only text), or a refusal as a result with
 * `isError: true` and `{code, reason, message}` — never a JSON-RPC error, so a model sees why it
 * was refused and can act on the stable `reason` (issue 14: "a refusal is a tool result").
 */

import { AgentClientError, MissionWeaveError } from '../errors.js';
import type { JsonObject } from '../documents.js';
import { ToolRefusal } from './toolSpec.js';

export interface ToolRefusalBody {
  /** The §19 code (or the SDK's client code, or this server's own). */
  readonly code: string;
  /** The profile's own reason (`details.reason`: Parley's `self_reply`…), else the code in lower case. */
  readonly reason: string;
  readonly message: string;
}

export interface ToolResult {
  [member: string]: unknown;
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent: JsonObject;
  readonly isError?: true;
}

export function toolResult(body: JsonObject): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * The refusal an error stands for. A failure that is neither the Authority's, nor the SDK's, nor
 * a tool's own is this process's bug: its message stays in the log (`log`), the model gets
 * INTERNAL_ERROR, as the Authority itself answers an unexpected failure (§19).
 */
export function refusalOf(error: unknown, log: (message: string) => void = () => {}): ToolRefusalBody {
  if (error instanceof MissionWeaveError) {
    const reason = error.details?.['reason'];
    return { code: error.code, reason: typeof reason === 'string' ? reason : error.code.toLowerCase(), message: error.message };
  }
  if (error instanceof ToolRefusal) return { code: error.code, reason: error.reason, message: error.message };
  if (error instanceof AgentClientError) return { code: error.code, reason: error.code.toLowerCase(), message: error.message };
  log(`tool failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { code: 'INTERNAL_ERROR', reason: 'internal_error', message: 'the MCP server failed without sending anything; see its log' };
}

export function refusalResult(error: unknown, log?: (message: string) => void): ToolResult {
  const body = refusalOf(error, log);
  return { ...toolResult({ ...body }), isError: true };
}
