/**
 * The ToolContext of `missionweave mcp` over one connected MissionWeaveAgent: Commands go over
 * the Agent's wss session, signed under its current Membership Epoch in the Group; reads are GETs
 * on the node's HTTPS origin with the session's bearer token (docs/human-api.md), through the one
 * read rule the node applies to every reader.
 *
 * The Membership Epoch comes from `GET /v1/me` (each Group entry carries it) and is kept per
 * Group; a Command refused MEMBERSHIP_STALE means the Membership changed since (a new role, §8):
 * the epochs are read once more and the Command is sent once more, a new Command with a new
 * Action ID — the refused one changed nothing.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { JsonObject, ProtocolEvent } from '../documents.js';
import { errorFromDocument, MissionWeaveError } from '../errors.js';
import { httpsGet } from '../httpsGet.js';
import { MCP_READ_MAX_BYTES, MCP_READ_TIMEOUT_MS } from './mcpLimits.js';
import { ToolRefusal, type ToolContext } from './toolSpec.js';

export interface AgentContextOptions {
  readonly agent: MissionWeaveAgent;
  /** The node's HTTPS origin (`https://host:port`), the wss endpoint's. */
  readonly origin: URL;
  /** The CA to trust for TLS, as the Agent's; the system store when absent. */
  readonly ca?: string | Buffer;
  /** Parley's `from.extension` when a call names none. */
  readonly extension: string;
}

/** One Group entry of `GET /v1/me`, as far as a tool needs it. */
export type MyGroup = {
  readonly groupId: string;
  readonly membershipEpoch?: number;
  readonly membershipState?: string;
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class AgentContext implements ToolContext {
  readonly agent: MissionWeaveAgent;
  readonly agentId: string;
  readonly extension: string;
  private readonly epochs = new Map<string, number>();

  constructor(private readonly options: AgentContextOptions) {
    this.agent = options.agent;
    this.agentId = options.agent.agentId;
    this.extension = options.extension;
  }

  async command(kind: string, payload: JsonObject, groupId: string, options: { readonly expectedRevision?: number; readonly workItemId?: string } = {}): Promise<ProtocolEvent> {
    const send = (membershipEpoch: number) => this.agent.command(kind, payload, { groupId, membershipEpoch, ...options });
    const known = this.epochs.get(groupId);
    try {
      return await send(known ?? (await this.membershipEpoch(groupId)));
    } catch (error) {
      if (!(error instanceof MissionWeaveError) || error.code !== 'MEMBERSHIP_STALE') throw error;
      return send(await this.membershipEpoch(groupId));
    }
  }

  async read(path: string): Promise<JsonObject> {
    const token = this.agent.sessionToken;
    if (token === undefined) throw new ToolRefusal('CONNECTION_CLOSED', 'connection_closed', `the Agent has no live session (${this.agent.state}); try again once it reconnects`);
    const response = await httpsGet(new URL(path, this.options.origin), this.options.ca, MCP_READ_TIMEOUT_MS, token, MCP_READ_MAX_BYTES).catch((cause: unknown) => {
      throw new ToolRefusal('CONNECTION_FAILED', 'read_failed', `GET ${path}: ${(cause as Error).message}`);
    });
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new ToolRefusal('PROTOCOL_VIOLATION_BY_SERVER', 'protocol_violation_by_server', `GET ${path} answered ${response.status} without JSON`);
    }
    if (response.status >= 400 || !isObject(body)) throw errorFromDocument(isObject(body) ? body['error'] : undefined);
    return body as JsonObject;
  }

  /** The Groups this Agent holds a Membership in (`GET /v1/me`), learning their epochs. */
  async groups(): Promise<JsonObject> {
    const me = await this.read('/v1/me');
    const groups = Array.isArray(me['groups']) ? (me['groups'] as MyGroup[]) : [];
    this.epochs.clear();
    for (const group of groups) {
      if (group.membershipState === 'active' && typeof group.membershipEpoch === 'number') this.epochs.set(group.groupId, group.membershipEpoch);
    }
    return me;
  }

  private async membershipEpoch(groupId: string): Promise<number> {
    await this.groups();
    const epoch = this.epochs.get(groupId);
    // The node answers a Command in a Group it does not know of, or one without this Agent, the same.
    if (epoch === undefined) throw new ToolRefusal('GROUP_NOT_FOUND', 'group_not_found', `this Agent holds no active Membership in ${groupId} (list_missions names its Groups)`);
    return epoch;
  }
}
