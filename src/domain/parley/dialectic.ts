/**
 * The dialectic profile (seed « Profil : Dialectique — la preuve plutôt que les votes »):
 * assert → unverified, attest → supported, a verifier's seal → verified; a refutation with proof
 * beats earlier support, even a verified claim (the Popperian asymmetry); a newer claim may
 * supersede older ones, and a claim may carry `valid_until`.
 */

import { compareInstants, parseTimestamp } from '../../protocol/timestamp.js';
import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import { authorOf, confirms, threadAuthorityMissing, tokenRightMissing } from './authority.js';
import { invalidBody } from './envelope.js';
import type { ClaimEnvelope } from './claimEnvelope.js';
import { parleyLimits } from './parleyLimits.js';
import { claimId, type Claim, type ParleyState, type Speaker } from './parleyTypes.js';

/** The `claimed` Event: every claim record the act created or changed. */
export interface ClaimedPayload {
  readonly claims: readonly Claim[];
}

export type ClaimDecision = { readonly ok: true; readonly payload: ClaimedPayload } | Refusal;

function settled(claim: Claim): Refusal | undefined {
  if (claim.status === 'refuted' || claim.status === 'superseded') {
    return parleyRefusal('claim_settled', `${claim.id} is ${claim.status}`);
  }
  return undefined;
}

/** Whether instant `a` is at or before `b` (both UTC text the envelope or the context checked). */
function atOrBefore(a: string, b: string): boolean {
  const x = parseTimestamp(a);
  const y = parseTimestamp(b);
  return x !== null && y !== null && compareInstants(x, y) <= 0;
}

function expired(claim: Claim, now: string): boolean {
  return claim.validUntil !== undefined && atOrBefore(claim.validUntil, now);
}

function assertClaim(state: ParleyState, speaker: Speaker, envelope: ClaimEnvelope, now: string): ClaimDecision {
  if (Object.keys(state.claims).length >= parleyLimits.maxClaims) return parleyRefusal('parley_limit', `a Group keeps at most ${parleyLimits.maxClaims} claims`);
  if (envelope.validUntil !== undefined && atOrBefore(envelope.validUntil, now)) return invalidBody('valid_until is in the future');
  const id = claimId(state.nextClaim);
  const replaced: Claim[] = [];
  for (const replacedId of envelope.supersedes) {
    const old = state.claims[replacedId];
    if (old === undefined) return parleyRefusal('unknown_claim', `${replacedId} does not exist`);
    const done = settled(old);
    if (done !== undefined) return done;
    // Replacing someone else's claim is moderation, as marking someone else's thread is.
    if (old.author.identity !== speaker.identity && !confirms(speaker)) return threadAuthorityMissing(`only its author, a lock holder or the human supersedes ${replacedId}`);
    replaced.push({ ...old, status: 'superseded', supersededBy: id });
  }
  const claim: Claim = {
    id,
    author: authorOf(speaker),
    body: envelope.body,
    status: 'unverified',
    assertedAt: now,
    proofs: envelope.proofs,
    attestations: [],
    supersedes: envelope.supersedes,
    ...(envelope.validUntil === undefined ? {} : { validUntil: envelope.validUntil }),
  };
  return { ok: true, payload: { claims: [claim, ...replaced] } };
}

function attest(claim: Claim, speaker: Speaker, envelope: ClaimEnvelope, now: string): ClaimDecision {
  // Support from one's own line is circular (seed: votes are « circulaires »): by identity.
  if (claim.author.identity === speaker.identity) return parleyRefusal('self_attest', 'a claim is not supported by its own author');
  if (claim.attestations.some((a) => a.by.identity === speaker.identity)) return parleyRefusal('already_attested', 'one attestation per identity: support is not a vote count');
  if (claim.attestations.length >= parleyLimits.maxAttestations) return parleyRefusal('parley_limit', `a claim keeps at most ${parleyLimits.maxAttestations} attestations`);
  const attestations = [...claim.attestations, { by: authorOf(speaker), at: now, proofs: envelope.proofs }];
  return { ok: true, payload: { claims: [{ ...claim, attestations, status: claim.status === 'unverified' ? 'supported' : claim.status }] } };
}

function verify(claim: Claim, speaker: Speaker): ClaimDecision {
  if (!speaker.rights.verify) return tokenRightMissing('only a verifier seals a claim');
  if (claim.author.identity === speaker.identity) return parleyRefusal('self_verify', 'a verifier does not seal its own claim');
  if (claim.status !== 'supported') return parleyRefusal('claim_unsupported', `${claim.id} is ${claim.status}, not supported`);
  return { ok: true, payload: { claims: [{ ...claim, status: 'verified', verifiedBy: authorOf(speaker) }] } };
}

function refute(claim: Claim, speaker: Speaker, envelope: ClaimEnvelope, now: string): ClaimDecision {
  // A proof is a pointer, never an opinion: no proof, no refutation.
  if (envelope.proofs.length === 0) return invalidBody('a refutation carries at least one proof');
  // The Popperian asymmetry: a proven refutation beats earlier support, even a verified seal.
  return { ok: true, payload: { claims: [{ ...claim, status: 'refuted', refutation: { by: authorOf(speaker), at: now, proofs: envelope.proofs, body: envelope.body } }] } };
}

export function decideClaim(state: ParleyState, speaker: Speaker, envelope: ClaimEnvelope, now: string): ClaimDecision {
  if (!speaker.rights.write) return tokenRightMissing('this Membership may read claims, not make them');
  if (envelope.act === 'assert') return assertClaim(state, speaker, envelope, now);
  const claim = envelope.claim === undefined ? undefined : state.claims[envelope.claim];
  if (claim === undefined) return parleyRefusal('unknown_claim', `${envelope.claim ?? 'the claim'} does not exist`);
  const done = settled(claim);
  if (done !== undefined) return done;
  if (envelope.act !== 'refute' && expired(claim, now)) return parleyRefusal('claim_expired', `${claim.id} was valid until ${claim.validUntil ?? ''}`);
  if (envelope.act === 'attest') return attest(claim, speaker, envelope, now);
  if (envelope.act === 'verify') return verify(claim, speaker);
  return refute(claim, speaker, envelope, now);
}

export function evolveClaimed(state: ParleyState, payload: ClaimedPayload): ParleyState {
  const claims = { ...state.claims };
  let nextClaim = state.nextClaim;
  for (const claim of payload.claims) {
    claims[claim.id] = claim;
    nextClaim = Math.max(nextClaim, Number(claim.id.slice('cl_'.length)) + 1);
  }
  return { ...state, claims, nextClaim };
}
