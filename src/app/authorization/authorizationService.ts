/**
 * The Authorization Service (§12): issues short-lived capability tokens to Workers and answers a
 * tool host's online question "is this token still valid?".
 *
 * Issuing. A Worker asks through its live Session (the transport authenticated it); the service
 * submits `ext.missionweave.core.capability_grant` as the Group Authority, naming the Session's
 * Agent and Epoch (never what the request body claims), through the ordinary pipeline, so the
 * decider judges binding, approval gate, scope and budget under the Group's lock and the grant is
 * a recorded fact. Only once it is accepted are the recorded claims signed into the token, which
 * goes back to that Session alone: the Event, the receipt and every log line carry the claims
 * and the token ID, never the token.
 *
 * Charging. A tool host charges a call to the token it was shown: the service checks the token
 * as above, then submits `ext.missionweaveprotocol.core.resource_usage_record` as the Group
 * Authority for the token's WorkItem, Ownership Epoch and Execution Lease, naming the token, with
 * an Action ID derived from the §16 idempotency key of the tool's operation, so a retried charge
 * of one operation is one charge. A retry is signed anew (another Command ID and time), which the
 * pipeline calls an Action ID collision; when the record already accepted under that Action ID is
 * this very charge, the retry gets the first answer, `charged` (§16: the tool host that lost the
 * first response recognises its effect), and any other charge reusing the operation stays
 * `ACTION_ID_COLLISION`. That kind's decider checks the ledger and the token's ceilings
 * (`checkCapabilityCharge`).
 *
 * Checking. The token's signature must be this Authority's key (`keyId` and the key itself);
 * then the WorkItem's current document decides: the grant must be its newest and the lease it
 * names the current live one (`capabilityStatus.ts`). A token issued under an earlier Authority
 * key fails after a key rotation; tokens live minutes, so the Worker asks again.
 */

import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import type { WorkItem } from '../../domain/documents.js';
import type { DecisionContext } from '../../domain/model.js';
import { checkCapabilityValid } from '../../domain/authorization/capabilityStatus.js';
import { isRefusal } from '../../domain/workItem/fencing.js';
import { CAPABILITY_GRANT, type CapabilityGrantedPayload } from '../../domain/authorization/capabilityGrant.js';
import {
  idempotencyKeyOf,
  decodeCapabilityToken,
  encodeCapabilityToken,
  verifyCapabilitySignature,
  type CapabilityClaims,
} from '../../protocol/capabilityToken.js';
import type { JsonObject, JsonValue } from '../../protocol/strictJson.js';
import { canonicalize } from '../../protocol/jcs.js';
import type { GroupAuthority } from '../groupAuthority.js';
import { signCommand, timestampOf } from '../issueDocuments.js';
import { wireError, type WireError } from '../wireError.js';
import { workRecordOf } from '../../domain/workItem/workRecord.js';

/** The authenticated Session asking: the transport fills it from the Bearer session token. */
export interface RequestingSession {
  readonly agentId: string;
  readonly sessionEpoch: number;
}

export type IssueOutcome = { readonly ok: true; readonly token: string; readonly claims: CapabilityClaims } | { readonly ok: false; readonly error: WireError };
export type StatusOutcome = { readonly ok: true; readonly claims: CapabilityClaims } | { readonly ok: false; readonly error: WireError };

const RESOURCE_USAGE_RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';

/** The request members the service passes on; any other member is refused by the payload schema. */
const REQUEST_MEMBERS = ['workItemId', 'ownershipEpoch', 'executionLeaseId', 'tools', 'resources', 'limits', 'expiresInSeconds'] as const;

export type WorkItemReader = (groupId: string, workItemId: string) => Promise<JsonValue | undefined>;
/** The signed Command text the service `serviceId` had accepted under `actionId`, if any (its receipt). */
export type ServiceCommandReader = (serviceId: string, actionId: string) => Promise<string | undefined>;

export class AuthorizationService {
  private readonly publicKey: KeyObject;

  constructor(
    private readonly authority: GroupAuthority,
    private readonly readWorkItem: WorkItemReader,
    private readonly readServiceCommand: ServiceCommandReader,
  ) {
    this.publicKey = createPublicKey(authority.settings.authorityKey.privateKey);
  }

  /** Grants a token to `session` for the WorkItem `request` names in Group `groupId`. */
  async issue(session: RequestingSession, groupId: string, request: JsonObject): Promise<IssueOutcome> {
    const { services, authorityKey } = this.authority.settings;
    const payload: Record<string, JsonValue> = { agentId: session.agentId, sessionEpoch: session.sessionEpoch };
    for (const [name, value] of Object.entries(request)) {
      if (!(REQUEST_MEMBERS as readonly string[]).includes(name)) {
        return { ok: false, error: wireError('SCHEMA_VALIDATION_FAILED', `unknown request member ${name}`) };
      }
      payload[name] = value;
    }
    const workItemId = typeof request['workItemId'] === 'string' ? request['workItemId'] : undefined;
    const command = signCommand(
      {
        actor: services.authority,
        kind: CAPABILITY_GRANT,
        payload: payload as JsonObject,
        issuedAt: timestampOf(this.authority.clock.nowMillis()),
        groupId,
        actionId: `urn:uuid:${randomUUID()}`,
        ...(workItemId === undefined ? {} : { workItemId }),
      },
      authorityKey,
    );
    const outcome = await this.authority.submit(command);
    if (!outcome.ok) return outcome;
    const event = JSON.parse((outcome.events[0] as { text: string }).text) as { payload: CapabilityGrantedPayload };
    const claims: CapabilityClaims = { ...event.payload.grant, keyId: authorityKey.keyId };
    return { ok: true, token: encodeCapabilityToken(claims, authorityKey.privateKey), claims };
  }

  /**
   * Charges `usageDelta` for the logical operation `operationId` to `token` (the usage delta is
   * checked by the payload schema: nonzero, six known dimensions).
   */
  async charge(token: string, usageDelta: JsonValue, operationId: string): Promise<StatusOutcome> {
    const valid = await this.status(token);
    if (!valid.ok) return valid;
    const { claims } = valid;
    const { services, authorityKey } = this.authority.settings;
    const key = idempotencyKeyOf(claims, operationId);
    const actionId = `urn:missionweave:charge:${key.slice('sha256:'.length)}`;
    const payload: JsonObject = { workItemId: claims.workItemId, ownershipEpoch: claims.ownershipEpoch, executionLeaseId: claims.executionLeaseId, usageDelta, capabilityTokenId: claims.tokenId };
    const command = signCommand(
      { actor: services.authority, kind: RESOURCE_USAGE_RECORD, payload, issuedAt: timestampOf(this.authority.clock.nowMillis()), groupId: claims.groupId, actionId, workItemId: claims.workItemId },
      authorityKey,
    );
    const outcome = await this.authority.submit(command);
    if (outcome.ok) return valid;
    if (outcome.error.code === 'ACTION_ID_COLLISION' && (await this.recordedCharge(actionId, payload))) return valid;
    return outcome;
  }

  /** Whether the Command accepted under the charge's Action ID recorded exactly `payload`. */
  private async recordedCharge(actionId: string, payload: JsonObject): Promise<boolean> {
    const text = await this.readServiceCommand(this.authority.settings.services.authority.id, actionId);
    if (text === undefined) return false;
    const recorded = JSON.parse(text) as { kind?: unknown; payload?: unknown };
    return recorded.kind === RESOURCE_USAGE_RECORD && canonicalize(recorded.payload) === canonicalize(payload);
  }

  /** Whether `token` is valid now: signature, then the WorkItem's current grant and lease. */
  async status(token: string): Promise<StatusOutcome> {
    const decoded = decodeCapabilityToken(token);
    const forbidden = (message: string) => ({ ok: false, error: wireError('AUTH_FORBIDDEN', message) }) as const;
    if (!decoded.ok) return forbidden('not a capability token');
    const { claims } = decoded;
    if (claims.keyId !== this.authority.settings.authorityKey.keyId || !verifyCapabilitySignature(decoded, this.publicKey)) {
      return forbidden('the capability token is not signed by this Group Authority');
    }
    const document = await this.readWorkItem(claims.groupId, claims.workItemId);
    if (document === undefined) return forbidden('the WorkItem holds no such capability token');
    const verdict = checkCapabilityValid(workRecordOf(document as unknown as WorkItem), claims, this.checkContext());
    if (isRefusal(verdict)) {
      return { ok: false, error: wireError(verdict.error.code, verdict.error.message, { details: { reason: verdict.error.reason, capabilityTokenId: claims.tokenId } }) };
    }
    return { ok: true, claims };
  }

  /** What the validity check reads of the world: the Authority's clock only. */
  private checkContext(): DecisionContext {
    const nowMillis = this.authority.clock.nowMillis();
    return {
      now: timestampOf(nowMillis),
      nowMillis,
      newId: () => {
        throw new Error('a validity check allocates no identifiers');
      },
      agent: () => undefined,
      mission: () => undefined,
      groupExists: () => false,
      services: this.authority.settings.services,
    };
  }
}
