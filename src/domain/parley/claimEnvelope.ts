/**
 * The dialectic profile's envelope (seed « Profil : Dialectique »): a claim act, a body of at
 * most 500 characters, proofs as pointers `{kind, ref, note?}`, `supersedes` and `valid_until`.
 * The same strictness as the core envelope: unknown members are `invalid_body`, server-set ones
 * are dropped.
 */

import type { Refusal } from '../model.js';
import { invalidBody } from './envelope.js';
import { parleyLimits } from './parleyLimits.js';
import type { ClaimId, Proof } from './parleyTypes.js';

export const CLAIM_ACTS = ['assert', 'attest', 'verify', 'refute'] as const;
export type ClaimAct = (typeof CLAIM_ACTS)[number];

export const PROOF_KINDS: readonly Proof['kind'][] = ['url', 'hash', 'artifact', 'commit', 'log', 'reproducer', 'note', 'other'];

export interface ClaimEnvelope {
  readonly act: ClaimAct;
  readonly claim?: ClaimId;
  readonly extension: string;
  readonly body: string;
  readonly proofs: readonly Proof[];
  readonly supersedes: readonly ClaimId[];
  readonly validUntil?: string;
}

const SERVER_SET = new Set(['id', 'author_kind', 'created_at']);
const MEMBERS = new Set(['parley', 'act', 'claim', 'from', 'body', 'proofs', 'supersedes', 'valid_until']);
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** `cl_<n>`, the one form of a claim's name: a bare number is not one (no silent alias). */
function claimKey(value: unknown): ClaimId | undefined {
  return typeof value === 'string' && /^cl_[1-9][0-9]{0,14}$/.test(value) ? (value as ClaimId) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A proof is a pointer, never an opinion: a known kind and a non-empty reference. */
export function parseProof(value: unknown): Proof | Refusal {
  if (!isObject(value)) return invalidBody('a proof is {kind, ref, note?}');
  if (Object.keys(value).some((k) => k !== 'kind' && k !== 'ref' && k !== 'note')) return invalidBody('a proof has only kind, ref and note');
  if (!PROOF_KINDS.includes(value.kind as Proof['kind'])) return invalidBody(`a proof's kind is one of ${PROOF_KINDS.join('|')}`);
  if (typeof value.ref !== 'string' || value.ref.trim().length === 0 || value.ref.length > parleyLimits.proofRefMaxChars) return invalidBody('a proof points somewhere (ref)');
  if (value.note !== undefined && (typeof value.note !== 'string' || value.note.length > parleyLimits.proofNoteMaxChars)) return invalidBody('a proof note is short text');
  const proof = { kind: value.kind as Proof['kind'], ref: value.ref };
  return value.note === undefined ? proof : { ...proof, note: value.note as string };
}

function isRefusal(value: unknown): value is Refusal {
  return isObject(value) && value.ok === false;
}

export function parseClaimEnvelope(payload: unknown): ClaimEnvelope | Refusal {
  if (!isObject(payload)) return invalidBody('the envelope is an object');
  for (const key of Object.keys(payload)) if (!MEMBERS.has(key) && !SERVER_SET.has(key)) return invalidBody(`unknown member ${key}`);
  if (payload.parley !== undefined && payload.parley !== '1') return invalidBody('parley is "1"');
  if (!(CLAIM_ACTS as readonly unknown[]).includes(payload.act)) return invalidBody(`act is one of ${CLAIM_ACTS.join('|')}`);
  const act = payload.act as ClaimAct;
  if (typeof payload.body !== 'string' || payload.body.trim().length === 0) return invalidBody('body is empty');
  if ([...payload.body].length > parleyLimits.bodyMaxChars) return invalidBody(`body exceeds ${parleyLimits.bodyMaxChars} characters`);
  const from = payload.from;
  if (!isObject(from) || Object.keys(from).some((k) => k !== 'extension' && k !== 'identity')) return invalidBody('from is {extension}');
  if (typeof from.extension !== 'string' || from.extension.length === 0 || from.extension.length > parleyLimits.extensionMaxChars) return invalidBody('from.extension is a short label');
  const claim = payload.claim === undefined ? undefined : claimKey(payload.claim);
  if (payload.claim !== undefined && claim === undefined) return invalidBody('claim is cl_<n>');
  if (act === 'assert' ? claim !== undefined : claim === undefined) return invalidBody(act === 'assert' ? 'assert makes a new claim' : `${act} names its claim`);
  const rawProofs = payload.proofs ?? [];
  if (!Array.isArray(rawProofs) || rawProofs.length > parleyLimits.maxProofs) return invalidBody(`proofs is a list of at most ${parleyLimits.maxProofs}`);
  const proofs: Proof[] = [];
  for (const raw of rawProofs) {
    const proof = parseProof(raw);
    if (isRefusal(proof)) return proof;
    proofs.push(proof);
  }
  const rawSupersedes = payload.supersedes ?? [];
  if (!Array.isArray(rawSupersedes) || rawSupersedes.length > parleyLimits.maxSupersedes) return invalidBody(`supersedes lists at most ${parleyLimits.maxSupersedes} claims`);
  if (act !== 'assert' && rawSupersedes.length > 0) return invalidBody('only assert supersedes');
  const supersedes: ClaimId[] = [];
  for (const raw of rawSupersedes) {
    const id = claimKey(raw);
    if (id === undefined) return invalidBody('supersedes lists cl_<n>');
    supersedes.push(id);
  }
  if (payload.valid_until !== undefined && (act !== 'assert' || typeof payload.valid_until !== 'string' || !UTC.test(payload.valid_until))) {
    return invalidBody('valid_until is a UTC instant on an assert');
  }
  return {
    act,
    ...(claim === undefined ? {} : { claim }),
    extension: from.extension,
    body: payload.body,
    proofs,
    supersedes,
    ...(payload.valid_until === undefined ? {} : { validUntil: payload.valid_until as string }),
  };
}
