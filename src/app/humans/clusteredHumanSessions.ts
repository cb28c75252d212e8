/**
 * Human sessions (docs/human-api.md) on a node of several processes (`serve --processes N`): a
 * browser's next request or its event stream may land on any process, so what `HumanSessions`
 * keeps in one process's memory is kept once for the node, in a `SharedHumanTable` (the cluster
 * primary, src/cli/clusterTables.ts). The processes share the challenge MAC secret, so a challenge
 * issued by one verifies on all; the single use of a challenge and the session table, with its
 * bounds per human and in all, are the primary's, so N processes give neither N uses of one
 * challenge nor N times the session caps. The Registry checks and the Ed25519 verification stay
 * in the process that answers, in the same cost order as `HumanSessions.open`.
 */

import { encodeBase64url } from '../../protocol/base64url.js';
import type { Principal } from '../../protocol/principal.js';
import { wireError } from '../wireError.js';
import type { AddResult } from './expiringEntries.js';
import { HumanSessions, NOT_AUTHENTICATED, openResultOf, transcriptOf, type ChallengeResult, type HumanSession, type HumanSessionDeps, type HumanSessionLimits, type OpenResult } from './humanSessions.js';

/** The node's human-session state, held once for all its processes. */
export interface SharedHumanTable {
  /** Records the challenge nonce as used; false when it already was, on any process. */
  consume(nonce: string, expiresAtMillis: number): Promise<boolean>;
  /** Whether the challenge nonce was used already, on any process. */
  consumed(nonce: string): Promise<boolean>;
  /** Adds a session under the node's bounds; resolves once every process knows it. */
  add(token: string, session: HumanSession): Promise<AddResult>;
  /** The session of a token, as this process last heard (synchronous: every read asks it). */
  get(token: string, nowMillis: number): HumanSession | undefined;
  /** Ends a session on every process; false when the token names none. */
  delete(token: string): Promise<boolean>;
  readonly size: number;
}

/** What the read API needs of human sessions, in one process or across several. */
export interface HumanSessionService {
  challenge(humanId: string, keyId: string, audience: string): ChallengeResult;
  awaitsKey(challengeId: string): boolean | Promise<boolean>;
  open(challengeId: string, signature: string): OpenResult | Promise<OpenResult>;
  principalOf(token: string): Principal | undefined;
  end(token: string): boolean | Promise<boolean>;
  readonly openSessions: number;
}

export class ClusteredHumanSessions implements HumanSessionService {
  /** Issues and checks challenges and signatures; its own tables stay empty. */
  private readonly local: HumanSessions;

  constructor(
    private readonly limits: HumanSessionLimits,
    private readonly deps: HumanSessionDeps & { readonly secret: Buffer },
    private readonly table: SharedHumanTable,
  ) {
    this.local = new HumanSessions(limits, deps);
  }

  challenge(humanId: string, keyId: string, audience: string): ChallengeResult {
    return this.local.challenge(humanId, keyId, audience);
  }

  async awaitsKey(challengeId: string): Promise<boolean> {
    const now = this.deps.nowMillis();
    const fields = this.local.live(challengeId, now);
    if (fields === undefined || this.local.keyValid(fields.humanId, fields.keyId, now)) return false;
    return !(await this.table.consumed(fields.nonce));
  }

  async open(challengeId: string, signature: string): Promise<OpenResult> {
    const now = this.deps.nowMillis();
    const fields = this.local.live(challengeId, now);
    const refused: OpenResult = { ok: false, error: wireError('AUTH_REQUIRED', NOT_AUTHENTICATED) };
    // Single use across the node: whatever the answer, an authentic challenge is spent by its first attempt.
    if (fields === undefined || !(await this.table.consume(fields.nonce, fields.expiresAtMillis))) return refused;
    if (!this.local.verifies(transcriptOf(fields), signature, this.deps.nowMillis())) return refused;
    const { humanId, keyId } = fields;
    const token = encodeBase64url(this.deps.randomBytes(32));
    const expiresAtMillis = this.deps.nowMillis() + this.limits.humanSessionTtlMs;
    const session = { owner: humanId, expiresAtMillis, humanId, keyId };
    return openResultOf(await this.table.add(token, session), session, token, this.limits);
  }

  principalOf(token: string): Principal | undefined {
    const now = this.deps.nowMillis();
    const session = this.table.get(token, now);
    if (session === undefined) return undefined;
    if (!this.local.keyValid(session.humanId, session.keyId, now)) {
      // Ended everywhere; this process refuses it from now on whatever the primary answers.
      void this.table.delete(token).catch(() => undefined);
      return undefined;
    }
    return { type: 'human', id: session.humanId };
  }

  get openSessions(): number {
    return this.table.size;
  }

  end(token: string): Promise<boolean> {
    return this.table.delete(token);
  }
}
