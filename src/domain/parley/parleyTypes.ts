/**
 * The Parley slice of Group state and its records (seed « L'enveloppe », « La machine à
 * états », « Lecture »). Everything here is what the server sets: numbers, authors, times,
 * states and who holds the turn; nothing is taken from the client's word.
 */

/** Seed « La machine à états »: the forward states, then the three side ends. */
export type ThreadState = 'open' | 'answered' | 'decided' | 'closed' | 'deferred' | 'obsolete' | 'rejected';

export const FORWARD_STATES: readonly ThreadState[] = ['open', 'answered', 'decided', 'closed'];
export const SIDE_ENDS: readonly ThreadState[] = ['deferred', 'obsolete', 'rejected'];

/** Seed « Proposition et confirmation »: a human's mark is `user`, a model's is `llm`. */
export type StateOrigin = 'user' | 'llm';

/** Seed « Identité et extensions »: the identity is the server's, the extension the client's label. */
export interface Author {
  readonly identity: string;
  readonly extension: string;
  readonly authorKind: 'human' | 'agent';
  /**
   * How the author is shown: `identity · extension`, and `KI · identity · extension` for a model
   * that held the lock right when it spoke (seed « Autorité » 2: « Visible sous la forme KI ·
   * <label> »). Set by the server at the decision, from the Membership, never by the client.
   */
  readonly label: string;
}

/**
 * Who must speak next (seed « Les neuf actes »: exactly one open turn). A party, anyone, or the
 * thread's authority (a lock holder or the human) when only a confirmation can move it on.
 */
export type Turn =
  | { readonly to: 'party'; readonly identity: string; readonly extension?: string }
  | { readonly to: 'anyone' }
  | { readonly to: 'authority' };

export interface ParleyMessage {
  readonly number: number;
  readonly thread: number;
  readonly parent?: number;
  readonly kind: string;
  readonly from: Author;
  readonly body: string;
  readonly provenance?: Readonly<Record<string, string>>;
  readonly createdAt: string;
  /** Who must answer this message; absent when it ends the thread. */
  readonly awaiting?: Turn;
  readonly depth: number;
}

/** One entry of a thread's state-change log (seed « Lecture »: origin, label, time, confirmation). */
export interface StateChange {
  readonly message: number;
  readonly from: ThreadState;
  readonly to: ThreadState;
  readonly origin: StateOrigin;
  /** The label of who set it (its author's `label`). */
  readonly label: string;
  readonly at: string;
  readonly confirmedAt: string | null;
}

export interface ParleyThread {
  readonly number: number;
  readonly creator: Author;
  readonly createdAt: string;
  readonly state: ThreadState;
  readonly stateOrigin: StateOrigin;
  readonly stateConfirmedAt: string | null;
  /** The turn the last message names; absent once the thread reached a confirmed end. */
  readonly turn?: Turn;
  readonly lastMessageAt: string;
  readonly lastMessage: number;
  readonly messages: readonly number[];
  readonly log: readonly StateChange[];
}

export type ClaimStatus = 'unverified' | 'supported' | 'verified' | 'refuted' | 'superseded';

/** Seed « Dialectique »: a proof is a pointer, never an opinion. */
export interface Proof {
  readonly kind: 'url' | 'hash' | 'artifact' | 'commit' | 'log' | 'reproducer' | 'note' | 'other';
  readonly ref: string;
  readonly note?: string;
}

/**
 * A claim's one name, `cl_<n>`, in its records, its Events and the envelopes that point at it
 * (seed « Dialectique »: `supersedes: ["cl_…"]`); unlike a thread or a message, never a bare number.
 */
export type ClaimId = `cl_${number}`;

export function claimId(n: number): ClaimId {
  return `cl_${n}`;
}

export interface Claim {
  readonly id: ClaimId;
  readonly author: Author;
  readonly body: string;
  readonly status: ClaimStatus;
  readonly assertedAt: string;
  readonly proofs: readonly Proof[];
  readonly attestations: readonly { readonly by: Author; readonly at: string; readonly proofs: readonly Proof[] }[];
  readonly verifiedBy?: Author;
  readonly refutation?: { readonly by: Author; readonly at: string; readonly proofs: readonly Proof[]; readonly body: string };
  readonly supersedes: readonly ClaimId[];
  readonly supersededBy?: ClaimId;
  readonly validUntil?: string;
}

export interface ParleyState {
  // Records, not Maps: the slice is stored as JSON with the Group's state (groupState rows).
  readonly threads: Readonly<Record<string, ParleyThread>>;
  readonly messages: Readonly<Record<string, ParleyMessage>>;
  /** By `cl_<n>`. */
  readonly claims: Readonly<Record<ClaimId, Claim>>;
  /** Messages are numbered across the Group, in creation order (the inbox cursor relies on it). */
  readonly nextMessage: number;
  readonly nextThread: number;
  readonly nextClaim: number;
}

export function initialParleyState(): ParleyState {
  return { threads: {}, messages: {}, claims: {}, nextMessage: 1, nextThread: 1, nextClaim: 1 };
}

/** What the server knows of the speaker: its identity and its rights (from Membership). */
export interface Speaker {
  readonly identity: string;
  readonly extension: string;
  readonly rights: Rights;
}

/** Seed « Autorité »: rights belong to the token's line (the Membership), never to the extension. */
export interface Rights {
  readonly write: boolean;
  readonly lock: boolean;
  readonly human: boolean;
  /** Dialectic: may seal a supported claim as verified. */
  readonly verify: boolean;
}
