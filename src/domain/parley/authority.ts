/**
 * Who may mark what (seed « Autorité », « Proposition et confirmation », « Identité et
 * extensions »). Rights come from the speaker's Membership role, the token's line, never from
 * the `extension` label: sub-agents sharing a token share its rights.
 */

import type { Membership } from '../documents.js';
import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import type { Author, ParleyThread, Rights, Speaker, StateOrigin } from './parleyTypes.js';

/**
 * Rights by Membership role. An observer reads only; a writer speaks; the MissionOwner and the
 * Coordinator moderate (the lock right, seed: « KI · <label> »); a Reviewer may seal a claim
 * (dialectic verifier). A human member is « l'humain » unless it only observes.
 */
export function rightsOf(membership: Pick<Membership, 'member' | 'role' | 'state'>): Rights {
  const active = membership.state === 'active';
  const write = active && membership.role !== 'observer';
  const moderator = membership.role === 'mission_owner' || membership.role === 'coordinator';
  const human = write && membership.member.type === 'human';
  return { write, lock: write && moderator, human, verify: write && (membership.role === 'reviewer' || human) };
}

export const NO_RIGHTS: Rights = { write: false, lock: false, human: false, verify: false };

export function tokenRightMissing(message: string): Refusal {
  return parleyRefusal('token_right_missing', message);
}

export function threadAuthorityMissing(message: string): Refusal {
  return parleyRefusal('thread_authority_missing', message);
}

/** Seed « Autorité » 1: the creator, by identity (any of its extensions: rights are the line's). */
export function isCreator(thread: ParleyThread, speaker: Speaker): boolean {
  return thread.creator.identity === speaker.identity;
}

/** Creator over its own thread, the lock right over others', the human over all. */
export function hasThreadAuthority(thread: ParleyThread, speaker: Speaker): boolean {
  return speaker.rights.human || speaker.rights.lock || isCreator(thread, speaker);
}

/** Seed: only a lock holder or the human sets a confirmed state; a model's mark is a proposal. */
export function confirms(speaker: Speaker): boolean {
  return speaker.rights.human || speaker.rights.lock;
}

/** The manifest's description of a `label` (seed « Autorité » 2: the lock right is visible). */
export const LABELS = { member: '<identity> · <extension>', lockHolder: 'KI · <identity> · <extension>' } as const;

/** The speaker as its records show it; « KI » marks a model that holds the lock right, never the human. */
export function authorOf(speaker: Speaker): Author {
  const label = `${speaker.identity} · ${speaker.extension}`;
  return {
    identity: speaker.identity,
    extension: speaker.extension,
    authorKind: speaker.rights.human ? 'human' : 'agent',
    label: speaker.rights.lock && !speaker.rights.human ? `KI · ${label}` : label,
  };
}

export function originOf(speaker: Speaker): StateOrigin {
  return speaker.rights.human ? 'user' : 'llm';
}

/**
 * Seed « Autorité » 3: a closed thread is reopened by its creator, a lock holder or the human;
 * seed « La machine à états »: a side end only by moderation (lock holder or human).
 */
export function mayReopen(thread: ParleyThread, speaker: Speaker): Refusal | undefined {
  if (speaker.rights.human || speaker.rights.lock) return undefined;
  if (thread.state !== 'closed') return tokenRightMissing(`only moderation reopens a ${thread.state} thread`);
  return isCreator(thread, speaker) ? undefined : threadAuthorityMissing('only the creator, a lock holder or the human reopens this thread');
}
