/**
 * Parley v1 as an Extension Profile (§18) through the plug-in point of `kinds/profile.ts`. Every
 * Parley action is a Command of the Mission's Group (the pipeline checks Membership, epochs,
 * signature, idempotency and ordering first) and appends one Event to the profile's slice. A
 * Parley message is talk, never authority: nothing here touches WorkItems, leases or Approvals.
 *
 * The payload schemas only say "an object": the envelope is read by `envelope.ts`, so that a
 * malformed one is refused with the seed's stable reason `invalid_body`.
 */

import type { GroupState } from '../kinds/groupState.js';
import type { ExtensionProfile, ProfileEventType } from '../kinds/profile.js';
import { defineProfileKind, emit } from '../kinds/profile.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { Refusal } from '../model.js';
import { principalKey, type Principal } from '../../protocol/principal.js';
import { NO_RIGHTS, rightsOf } from './authority.js';
import { parseClaimEnvelope } from './claimEnvelope.js';
import { decideClaim, evolveClaimed, type ClaimedPayload } from './dialectic.js';
import { decidePost, type PostedPayload } from './decidePost.js';
import { parseEnvelope } from './envelope.js';
import { evolvePosted } from './evolveParley.js';
import { initialParleyState, type ParleyState, type Speaker } from './parleyTypes.js';

export const PARLEY_URI = 'urn:missionweave:profile:parley:1';
export const PARLEY_NAMESPACE = 'ext.missionweave.parley.';

/** Seed « Identité »: the identity is the server's (the Command's verified actor), never the client's. */
export function speakerOf(group: Readonly<GroupState>, actor: Principal, extension: string): Speaker {
  const membership = group.memberships.get(principalKey(actor));
  return { identity: actor.id, extension, rights: membership === undefined ? NO_RIGHTS : rightsOf(membership) };
}

/**
 * A Parley refusal keeps its §19 code and carries the seed's stable `reason` in `details`, the
 * member a wire error has for it (error.schema.json), so a client reads `self_reply` as is.
 */
function withReason(refusal: Refusal): Refusal {
  const { reason, details } = refusal.error;
  return { ok: false, error: { ...refusal.error, details: { ...details, reason } } };
}

const ENVELOPE_SCHEMA = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } as const;

export const parleyPosted: ProfileEventType<ParleyState, 'ext.missionweave.parley.posted', PostedPayload> = {
  kind: 'ext.missionweave.parley.posted',
  evolve: (slice, payload) => evolvePosted(slice, payload),
};

export const parleyClaimed: ProfileEventType<ParleyState, 'ext.missionweave.parley.claimed', ClaimedPayload> = {
  kind: 'ext.missionweave.parley.claimed',
  evolve: (slice, payload) => evolveClaimed(slice, payload),
};

export const parleyPost = defineProfileKind<ParleyState, JsonObject>()({
  kind: 'ext.missionweave.parley.post',
  authority: ['member'],
  missionStates: ['active'],
  payloadSchema: { ...ENVELOPE_SCHEMA },
  events: [parleyPosted],
  decide(slice, group, command, ctx) {
    const envelope = parseEnvelope(command.payload);
    if ('ok' in envelope) return withReason(envelope);
    const decision = decidePost(slice, speakerOf(group, command.actor, envelope.extension), envelope, ctx.now);
    if (!decision.ok) return withReason(decision);
    return emit({ kind: 'ext.missionweave.parley.posted', payload: decision.payload });
  },
});

export const parleyClaim = defineProfileKind<ParleyState, JsonObject>()({
  kind: 'ext.missionweave.parley.claim',
  authority: ['member'],
  missionStates: ['active'],
  payloadSchema: { ...ENVELOPE_SCHEMA },
  events: [parleyClaimed],
  decide(slice, group, command, ctx) {
    const envelope = parseClaimEnvelope(command.payload);
    if ('ok' in envelope) return withReason(envelope);
    const decision = decideClaim(slice, speakerOf(group, command.actor, envelope.extension), envelope, ctx.now);
    if (!decision.ok) return withReason(decision);
    return emit({ kind: 'ext.missionweave.parley.claimed', payload: decision.payload });
  },
});

export const parleyProfile: ExtensionProfile<ParleyState> = {
  uri: PARLEY_URI,
  namespace: PARLEY_NAMESPACE,
  initialState: initialParleyState,
  kinds: [parleyPost, parleyClaim],
};
