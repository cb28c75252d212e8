/**
 * One MCP tool of `missionweave mcp` (issue 14, part 3): a name, what it does in words a model
 * reads, its input as a zod shape (the MCP SDK publishes it as JSON Schema), and what it runs
 * against the Agent's session. Tool modules (`parleyTools.ts`, `missionTools.ts`,
 * `workTools.ts`) each export a list of these; `mcpServer.ts` registers every list the same way,
 * so a new Extension Profile's tools are one module.
 *
 * A refusal is a result, not a protocol error (issue 14): a tool throws `ToolRefusal` (or lets a
 * `MissionWeaveError` from the Authority through) and the server answers `isError: true` with a
 * stable machine-readable `{code, reason, message}`, `reason` being the profile's own (Parley's
 * `self_reply`, say) or, for core refusals, the §19 code in lower case. Arguments are read by
 * the server before `run` (`toolArguments.ts`): an unknown member or a wrong type is refused
 * the same way, with `malformedReason`.
 */

import type { ZodRawShape, z } from 'zod';
import type { MissionWeaveAgent } from '../agent.js';
import type { JsonObject, ProtocolEvent } from '../documents.js';

/** What a tool may do with the Agent: sign and send Commands over wss, read over HTTPS. */
export interface ToolContext {
  readonly agent: MissionWeaveAgent;
  readonly agentId: string;
  /** The label this MCP server speaks under in Parley's `from.extension` unless a call names one. */
  readonly extension: string;
  /**
   * Signs and sends one Command in a Group under the Agent's current Membership Epoch there;
   * resolves with the primary Event, rejects with the Authority's `MissionWeaveError`.
   */
  command(kind: string, payload: JsonObject, groupId: string, options?: { readonly expectedRevision?: number; readonly workItemId?: string }): Promise<ProtocolEvent>;
  /**
   * One GET on the node's HTTPS origin with the Agent's session token (`/v1/me`,
   * `/v1/groups/{g}/events`, Parley's reads…); the JSON body, or a `MissionWeaveError` built from
   * the error document the node answered.
   */
  read(path: string): Promise<JsonObject>;
  /** The tools this server offers, as `createMcpServer` registered them (`get_manifest` lists them). */
  readonly tools?: readonly ToolSummary[];
}

/** A tool as `get_manifest` names it, so a model learns every operation from one call. */
export interface ToolSummary {
  readonly name: string;
  readonly readOnly: boolean;
}

export interface McpToolSpec<S extends ZodRawShape = ZodRawShape> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  /** True for tools that change nothing (reads): published as the MCP `readOnlyHint`. */
  readonly readOnly?: boolean;
  /**
   * The reason of a refusal (code SCHEMA_VALIDATION_FAILED) when the arguments do not match
   * `input`: a profile's own (Parley's `invalid_body`), else `schema_validation_failed`.
   */
  readonly malformedReason?: string;
  run(args: z.infer<z.ZodObject<S>>, context: ToolContext): Promise<JsonObject>;
}

/** A refusal decided on the Agent's side (a missing argument the schema cannot express, say). */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';

  constructor(
    readonly code: string,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** Keeps each tool's argument type while collecting tools of different shapes in one list. */
export function tool<S extends ZodRawShape>(spec: McpToolSpec<S>): McpToolSpec {
  return spec as unknown as McpToolSpec;
}
