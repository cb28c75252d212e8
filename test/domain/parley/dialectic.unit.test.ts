/**
 * Seed « Profil : Dialectique »: assert → unverified, attest → supported, only a verifier seals
 * verified; a refutation needs a proof (a pointer, never an opinion) and beats earlier support,
 * even a verified claim; supersedes and valid_until.
 */

import { describe, expect, it } from 'vitest';
import { parseClaimEnvelope, PROOF_KINDS } from '../../../src/domain/parley/claimEnvelope.js';
import { parleyManifest } from '../../../src/domain/parley/manifest.js';
import { CLAIM, CLAIMED, COORD, GROUP_EVENTS, OWNER, REVIEWER, STRANGER, T0, W1, WORKER, WORKER2, at, sliceOf, talk, when } from './parleyFixtures.js';

function claim(act: string, body: string, extra: object = {}, extension = 'main'): object {
  return { parley: '1', act, body, from: { extension }, ...extra };
}

const PROOF = { kind: 'commit', ref: 'a1b2c3d', note: 'the benchmark run' };
const status = (events: Parameters<typeof sliceOf>[0], n = 1) => sliceOf(events).claims[`cl_${n}`]?.status;

const ASSERTED = talk(GROUP_EVENTS, [WORKER, claim('assert', 'The btree halves p99 latency.', { proofs: [PROOF] }), CLAIM]);
const SUPPORTED = talk(ASSERTED, [WORKER2, claim('attest', 'Reproduced.', { claim: 'cl_1', proofs: [{ kind: 'log', ref: 'run-17' }] }), CLAIM]);
const VERIFIED = talk(SUPPORTED, [REVIEWER, claim('verify', 'Checked the run.', { claim: 'cl_1' }), CLAIM]);

describe('the dialectic profile', () => {
  it('assert makes an unverified claim, recorded whole', () => {
    when(GROUP_EVENTS, WORKER, claim('assert', 'The btree halves p99 latency.', { proofs: [PROOF] }), CLAIM).then([
      {
        kind: CLAIMED,
        payload: {
          claims: [
            { id: 'cl_1', author: { identity: W1, extension: 'main', authorKind: 'agent', label: `${W1} · main` }, body: 'The btree halves p99 latency.', status: 'unverified', assertedAt: T0, proofs: [PROOF], attestations: [], supersedes: [] },
          ],
        },
      },
    ]);
  });

  it('attest by another identity makes it supported; self-support is refused', () => {
    expect(status(SUPPORTED)).toBe('supported');
    when(ASSERTED, WORKER, claim('attest', 'I agree with me.', { claim: 'cl_1' }, 'other'), CLAIM).thenFails('INVALID_COMMAND', 'self_attest');
    when(SUPPORTED, WORKER2, claim('attest', 'Again.', { claim: 'cl_1' }), CLAIM).thenFails('INVALID_COMMAND', 'already_attested');
  });

  it('only a verifier seals a supported claim as verified', () => {
    expect(status(VERIFIED)).toBe('verified');
    expect(sliceOf(VERIFIED).claims['cl_1']?.verifiedBy?.identity).toBe(REVIEWER.id);
    when(SUPPORTED, WORKER2, claim('verify', 'x', { claim: 'cl_1' }), CLAIM).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
    when(SUPPORTED, COORD, claim('verify', 'x', { claim: 'cl_1' }), CLAIM).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
  });

  it('an unverified claim cannot be sealed before support', () => {
    when(ASSERTED, REVIEWER, claim('verify', 'x', { claim: 'cl_1' }), CLAIM).thenFails('INVALID_STATE_TRANSITION', 'claim_unsupported');
  });

  it('a refutation with a proof beats earlier support, even a verified seal', () => {
    const refuted = talk(VERIFIED, [WORKER2, claim('refute', 'p99 regressed on the full data set.', { claim: 'cl_1', proofs: [{ kind: 'reproducer', ref: 'repro/p99.sh' }] }), CLAIM]);
    expect(sliceOf(refuted).claims['cl_1']).toMatchObject({ status: 'refuted', refutation: { by: { identity: WORKER2.id }, proofs: [{ kind: 'reproducer', ref: 'repro/p99.sh' }] } });
    when(refuted, WORKER2, claim('attest', 'x', { claim: 'cl_1' }), CLAIM).thenFails('INVALID_STATE_TRANSITION', 'claim_settled');
  });

  it('a refutation without proof is an opinion: invalid_body', () => {
    when(VERIFIED, WORKER2, claim('refute', 'I just disagree.', { claim: 'cl_1' }), CLAIM).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
  });

  it('a proof is a pointer of a known kind with a reference', () => {
    expect(PROOF_KINDS).toEqual(['url', 'hash', 'artifact', 'commit', 'log', 'reproducer', 'note', 'other']);
    expect(parleyManifest().profiles.dialectic.proofKinds).toEqual(PROOF_KINDS);
    for (const proof of [{ kind: 'vote', ref: 'x' }, { kind: 'url' }, { kind: 'url', ref: '' }, { kind: 'url', ref: 'x', weight: 3 }]) {
      expect(parseClaimEnvelope(claim('refute', 'x', { claim: 'cl_1', proofs: [proof] }))).toMatchObject({ ok: false, error: { reason: 'invalid_body' } });
    }
  });

  it('a newer claim supersedes older ones of its author; another model may not supersede them', () => {
    const replaced = talk(ASSERTED, [WORKER, claim('assert', 'It cuts p99 by 40%.', { supersedes: ['cl_1'] }), CLAIM]);
    expect([status(replaced, 1), status(replaced, 2), sliceOf(replaced).claims['cl_1']?.supersededBy, sliceOf(replaced).claims['cl_2']?.supersedes]).toEqual(['superseded', 'unverified', 'cl_2', ['cl_1']]);
    when(ASSERTED, WORKER2, claim('assert', 'Mine instead.', { supersedes: ['cl_1'] }), CLAIM).thenFails('AUTH_FORBIDDEN', 'thread_authority_missing');
    expect(status(talk(ASSERTED, [OWNER, claim('assert', 'Restated.', { supersedes: ['cl_1'] }), CLAIM]), 1)).toBe('superseded');
  });

  it('valid_until: set in the future, and past it the claim takes no more support', () => {
    const dated = talk(GROUP_EVENTS, [WORKER, claim('assert', 'Cache is warm.', { valid_until: at(60) }), CLAIM]);
    expect(sliceOf(dated).claims['cl_1']?.validUntil).toBe(at(60));
    expect(status(talk(dated, [WORKER2, claim('attest', 'yes', { claim: 'cl_1' }), CLAIM, at(30)]))).toBe('supported');
    when(dated, WORKER2, claim('attest', 'yes', { claim: 'cl_1' }), CLAIM, at(60)).thenFails('INVALID_STATE_TRANSITION', 'claim_expired');
    const late = talk(dated, [WORKER2, claim('refute', 'It went cold.', { claim: 'cl_1', proofs: [{ kind: 'log', ref: 'cache.log' }] }), CLAIM, at(120)]);
    expect(status(late)).toBe('refuted');
    when(GROUP_EVENTS, WORKER, claim('assert', 'x', { valid_until: '2020-01-01T00:00:00Z' }), CLAIM).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
  });

  it('names a claim cl_<n> and only so: in its records, and in envelopes, where a bare number is refused', () => {
    expect(Object.keys(sliceOf(SUPPORTED).claims)).toEqual(['cl_1']);
    when(SUPPORTED, REVIEWER, claim('verify', 'x', { claim: 1 }), CLAIM).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    when(SUPPORTED, WORKER, claim('assert', 'x', { supersedes: [1] }), CLAIM).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    when(SUPPORTED, REVIEWER, claim('verify', 'x', { claim: 'cl_9' }), CLAIM).thenFails('INVALID_COMMAND', 'unknown_claim');
  });

  it('an observer may not make claims', () => {
    when(GROUP_EVENTS, STRANGER, claim('assert', 'x'), CLAIM).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
  });
});
