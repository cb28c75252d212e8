/**
 * Documents the Organization's own services issue: Agent Cards signed by the Agent Registry,
 * and signed Commands of any actor (used by operator tools, the registry and tests).
 */

import { randomUUID } from 'node:crypto';
import { SESSION_OPEN } from '../domain/organization/organization.js';
import { sha256ContentHash } from '../protocol/contentHash.js';
import type { Principal } from '../protocol/principal.js';
import type { MissionWeaveAgentCard } from '../protocol/schemas/wireTypes.js';
import { signDocument, type SigningKey } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';

/** A signing-time stamp: UTC, upper-case Z, millisecond precision. */
export function timestampOf(millis: number): string {
  return new Date(millis).toISOString();
}

export interface CardRequest {
  readonly agentId: string;
  readonly organizationId: string;
  readonly cardVersion: number;
  readonly displayName: string;
  readonly owner: Principal;
  readonly endpoint: string;
  readonly keys: readonly { keyId: string; publicKey: string; validFrom: string }[];
  /** `id@version` pairs, e.g. `code.review@1.0.0`. */
  readonly capabilities: readonly string[];
  readonly maxConcurrency: number;
  readonly issuedAt: string;
}

const ANY_SCHEMA = 'urn:missionweave:schema:any-json';

export function issueAgentCard(request: CardRequest, registryKey: SigningKey): JsonObject {
  const card: Omit<MissionWeaveAgentCard, 'signature'> = {
    agentId: request.agentId,
    organizationId: request.organizationId,
    cardVersion: request.cardVersion,
    displayName: request.displayName,
    owner: request.owner,
    status: 'active',
    protocolVersions: ['0.1'],
    endpoints: [{ transport: 'wss', uri: request.endpoint }],
    publicKeys: request.keys.map((k) => ({ keyId: k.keyId, algorithm: 'Ed25519', publicKey: k.publicKey, validFrom: k.validFrom })),
    capabilities: request.capabilities.map((pair) => {
      const [id, version] = pair.split('@') as [string, string];
      return {
        id,
        version,
        inputSchema: ANY_SCHEMA,
        inputSchemaHash: sha256ContentHash('{}'),
        outputSchema: ANY_SCHEMA,
        outputSchemaHash: sha256ContentHash('{}'),
        constraints: {},
        verifiedEvidence: [`urn:missionweave:evidence:registration:${encodeURIComponent(id)}`],
      };
    }),
    maxConcurrency: request.maxConcurrency,
    issuedAt: request.issuedAt,
  };
  return signDocument('agent-card', card, registryKey);
}

export interface CommandRequest {
  readonly actor: Principal;
  readonly kind: string;
  readonly payload: JsonObject;
  readonly issuedAt: string;
  readonly groupId?: string;
  readonly sessionEpoch?: number;
  readonly membershipEpoch?: number;
  readonly coordinatorEpoch?: number;
  readonly expectedRevision?: number;
  readonly conversationId?: string;
  readonly workItemId?: string;
  /** The Cooperation Override Grant the Command consumes (§20). */
  readonly cooperationOverrideGrantId?: string;
  readonly actionId?: string;
  readonly correlationId?: string;
  /** Extension Profile data by profile URI (§18). */
  readonly extensions?: JsonObject;
}

/** A signed Command; omitted optional members stay absent (the schema forbids many of them). */
export function signCommand(request: CommandRequest, key: SigningKey): JsonObject {
  const optional = ['groupId', 'sessionEpoch', 'membershipEpoch', 'coordinatorEpoch', 'expectedRevision', 'conversationId', 'workItemId', 'cooperationOverrideGrantId', 'extensions'] as const;
  const command: JsonObject = {
    protocolVersion: '0.1',
    actionId: request.actionId ?? `urn:uuid:${randomUUID()}`,
    actor: request.actor,
    kind: request.kind,
    correlationId: request.correlationId ?? `urn:uuid:${randomUUID()}`,
    issuedAt: request.issuedAt,
    payload: request.payload,
  };
  for (const member of optional) {
    const value = request[member];
    if (value !== undefined) command[member] = value;
  }
  return signDocument('command', command, key);
}

/** The Group Authority's own session-opening Command for an Agent that answered HELLO (§6.3). */
export function signSessionOpen(service: Principal, agentId: string, issuedAt: string, key: SigningKey): JsonObject {
  return signCommand({ actor: service, kind: SESSION_OPEN, payload: { agentId }, issuedAt }, key);
}
