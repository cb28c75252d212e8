/**
 * Parley v1's limits, in one place (seed « Limites »: the values in force live in the manifest;
 * the seed's own table is lost, so these are ours, each with its reason). They bound the
 * profile's slice of Group state, which every decision of the Group reads.
 */

export const parleyLimits = {
  /** Seed « L'enveloppe »: a body holds at most 500 characters, so a turn stays one thought. */
  bodyMaxChars: 500,
  /** An extension label names a sub-agent, not a text: long enough for `worker-2`-like names. */
  extensionMaxChars: 64,
  /** `provenance` says which model and client spoke; a few short members, never a payload. */
  provenanceMaxMembers: 8,
  provenanceValueMaxChars: 200,
  /** Threads a Group keeps: the slice is folded on every Command of the Group. */
  maxThreads: 200,
  /** Messages a thread holds: past this a conversation is looping and must be decided or closed. */
  maxMessagesPerThread: 100,
  /** Reply depth: a deeper chain is a loop between two parties, not a discussion. */
  maxDepth: 32,
  /** Inbox page size, and its default, so one read cannot return the whole Group. */
  inboxMaxPage: 50,
  inboxDefaultPage: 20,
  /** Dialectic claims a Group keeps (same reason as threads). */
  maxClaims: 200,
  /** Proofs on one refutation or assertion: a pointer list, not an archive. */
  maxProofs: 8,
  proofRefMaxChars: 500,
  proofNoteMaxChars: 500,
  /** Claims one assertion may supersede: a replacement names its few predecessors. */
  maxSupersedes: 8,
  /** Attestations one claim keeps: support is not a vote count (seed « Dialectique »). */
  maxAttestations: 16,
} as const;

export type ParleyLimits = typeof parleyLimits;
