/**
 * The Authority reactor: on every node, the Group Authority issues the Commands its sweeps find
 * due (an expired lease to close, a replaced Session's Execution Lease to revoke, §11.3) through
 * the same pipeline as anyone's, signed with its own key as `services.authority`, whose binding the
 * Registry holds from `missionweave init` on (it signs session openings the same way).
 *
 * Nodes do not coordinate: each sweeps on a timer and when hinted, and the sweeps' deterministic
 * Action IDs plus deciders that refuse what no longer applies make a fact issued by several nodes,
 * or twice by one, produce one Event. A round runs one sweep after another, each issuing at most
 * `REACTOR_ROUND_LIMIT` Commands; rounds never overlap, and hints that arrive during a round fold
 * into one more round. Hints come from this node's own commits: a Session opened, an Agent Card
 * registered, a Membership granted here (the node that commits it is the one that hears it, and
 * every node reads the same store, so no other node needs telling; their timers are the
 * fallback). A hint runs only the sweeps its Event concerns (`Sweep.hintedBy`), the timer every
 * sweep: on Citus each sweep reads every shard, and a storm of HELLOs ran all six after every
 * batch of session openings (docs/citus-bench.md). `close` stops the timer and waits for the round in progress.
 */

import type { Logger } from 'pino';
import { ERROR_CODES } from '../../protocol/errorCodes.js';
import type { Pool } from '../../store/pool.js';
import type { GroupAuthority } from '../groupAuthority.js';
import { signCommand, timestampOf } from '../issueDocuments.js';
import type { DeliveredEvent } from '../outcomes.js';
import { CHILD_SWEEPS } from './childSweeps.js';
import { contextPackageSweep } from './contextSweeps.js';
import { LEASE_SWEEPS } from './leaseSweeps.js';
import { REACTOR_PERIOD_MS, REACTOR_REFUSED_KEPT, REACTOR_REFUSED_SKIP_MS, REACTOR_ROUND_LIMIT } from './reactorLimits.js';
import type { AuthorityCommandDraft, Sweep } from './sweep.js';

export interface ReactorOptions {
  readonly authority: GroupAuthority;
  readonly pool: Pool;
  readonly logger: Logger;
  readonly sweeps?: readonly Sweep[];
  readonly periodMs?: number;
  readonly roundLimit?: number;
}

/** What one round did: Commands issued, and how each ended. */
export interface RoundReport {
  readonly issued: number;
  readonly accepted: number;
  /** Another node (or an earlier round) had issued the same fact: receipt or `ACTION_ID_COLLISION`. */
  readonly duplicate: number;
  readonly refused: number;
  readonly failed: number;
}

type Ending = 'accepted' | 'duplicate' | 'refused' | 'failed';

const NOTHING: RoundReport = { issued: 0, accepted: 0, duplicate: 0, refused: 0, failed: 0 };

/**
 * The kinds among `hinting` of the Events committed on this node (a Session opened: its Agent's
 * older Execution Leases are to be revoked now; an Agent Card registered: an owner it no longer
 * fits is to be fenced now, §6.1; a Membership granted or changed: its member is owed a Context
 * Package now). Only a text that holds one of those kinds as a JSON string is parsed.
 */
function hintingKinds(events: readonly DeliveredEvent[], hinting: ReadonlySet<string>, quoted: readonly string[]): Set<string> {
  const kinds = new Set<string>();
  for (const event of events) {
    if (!quoted.some((kind) => event.text.includes(kind))) continue;
    const kind = (JSON.parse(event.text) as { kind?: unknown }).kind;
    if (typeof kind === 'string' && hinting.has(kind)) kinds.add(kind);
  }
  return kinds;
}

export class AuthorityReactor {
  private readonly sweeps: readonly Sweep[];
  private readonly roundLimit: number;
  private readonly timer: NodeJS.Timeout;
  /** The round in progress or waiting, chained so that rounds never overlap. */
  private tail: Promise<unknown> = Promise.resolve();
  /** The sweeps hinted for the round waiting to start; undefined when none waits. */
  private due: Set<Sweep> | undefined;
  private closed = false;
  /** Action IDs refused lately, with when; insertion-ordered, so the oldest goes first. */
  private readonly refused = new Map<string, number>();

  private constructor(private readonly options: ReactorOptions) {
    // Every node runs the lease sweeps (§11.3), the child-Mission sweeps (§7.1, §14) and, with the context generator's key, the Context Package sweep (§13.3).
    const { contextGenerator } = options.authority.settings;
    this.sweeps = options.sweeps ?? [...LEASE_SWEEPS, ...CHILD_SWEEPS, ...(contextGenerator === undefined ? [] : [contextPackageSweep(contextGenerator, options.authority.kinds)])];
    this.roundLimit = options.roundLimit ?? REACTOR_ROUND_LIMIT;
    this.timer = setInterval(() => this.hint(), options.periodMs ?? REACTOR_PERIOD_MS);
    this.timer.unref();
    const hinting = new Set(this.sweeps.flatMap((sweep) => sweep.hintedBy ?? []));
    const quoted = [...hinting].map((kind) => `"${kind}"`);
    options.authority.onCommitted((events) => {
      const kinds = hintingKinds(events, hinting, quoted);
      if (kinds.size > 0) this.hint(this.sweeps.filter((sweep) => sweep.hintedBy?.some((kind) => kinds.has(kind)) === true));
    });
  }

  /** Starts sweeping: a first round now, then every period and on every hint. */
  static start(options: ReactorOptions): AuthorityReactor {
    const reactor = new AuthorityReactor(options);
    reactor.hint();
    return reactor;
  }

  /** Asks for a round of `sweeps` (every sweep by default) soon; one already waiting to start takes them on. */
  hint(sweeps: readonly Sweep[] = this.sweeps): void {
    if (this.closed) return;
    if (this.due !== undefined) {
      for (const sweep of sweeps) this.due.add(sweep);
      return;
    }
    this.due = new Set(sweeps);
    void this.enqueue(() => {
      const due = this.due ?? new Set<Sweep>();
      this.due = undefined;
      return due;
    });
  }

  /** Runs one round of every sweep after any in progress, and reports it (for tests and tools). */
  sweepNow(): Promise<RoundReport> {
    return this.enqueue(() => new Set(this.sweeps));
  }

  /** Stops the timer and the hints; resolves once the round in progress has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.tail;
  }

  /** `take` names the round's sweeps when it starts (a hint arriving before then still joins). */
  private enqueue(take: () => ReadonlySet<Sweep>): Promise<RoundReport> {
    const round = this.tail.then(() => {
      const due = take();
      return this.closed ? NOTHING : this.round(due);
    });
    this.tail = round.catch(() => undefined);
    return round;
  }

  private async round(due: ReadonlySet<Sweep>): Promise<RoundReport> {
    const endings: Ending[] = [];
    for (const sweep of this.sweeps) {
      if (this.closed) break;
      if (!due.has(sweep)) continue;
      let drafts: readonly AuthorityCommandDraft[];
      try {
        // Facts refused lately are skipped; asking for as many more keeps them from taking the round's places.
        const found = await sweep.find(this.options.pool, this.options.authority.clock.nowMillis(), this.roundLimit + this.refused.size);
        drafts = found.filter((draft) => !this.skipped(draft.actionId)).slice(0, this.roundLimit);
      } catch (error) {
        this.options.logger.warn({ err: error, sweep: sweep.name }, 'Authority reactor sweep failed');
        continue;
      }
      endings.push(...(await Promise.all(drafts.map((draft) => this.issue(draft)))));
    }
    const count = (ending: Ending): number => endings.filter((e) => e === ending).length;
    return { issued: endings.length, accepted: count('accepted'), duplicate: count('duplicate'), refused: count('refused'), failed: count('failed') };
  }

  private skipped(actionId: string): boolean {
    const at = this.refused.get(actionId);
    if (at === undefined) return false;
    if (this.options.authority.clock.nowMillis() - at < REACTOR_REFUSED_SKIP_MS) return true;
    this.refused.delete(actionId);
    return false;
  }

  private remember(actionId: string): void {
    this.refused.delete(actionId);
    this.refused.set(actionId, this.options.authority.clock.nowMillis());
    if (this.refused.size > REACTOR_REFUSED_KEPT) this.refused.delete(this.refused.keys().next().value as string);
  }

  /** Signs `draft` as the Group Authority and submits it; every ending is normal and logged at debug. */
  private async issue(draft: AuthorityCommandDraft): Promise<Ending> {
    const { authority, logger } = this.options;
    const { services, authorityKey } = authority.settings;
    const facts = { kind: draft.kind, groupId: draft.groupId, actionId: draft.actionId };
    try {
      const command = signCommand(
        {
          actor: services.authority,
          kind: draft.kind,
          payload: draft.payload,
          issuedAt: timestampOf(authority.clock.nowMillis()),
          groupId: draft.groupId,
          actionId: draft.actionId,
          ...(draft.workItemId === undefined ? {} : { workItemId: draft.workItemId }),
          ...(draft.correlationId === undefined ? {} : { correlationId: draft.correlationId }),
        },
        authorityKey,
      );
      const outcome = await authority.submit(command);
      if (outcome.ok) {
        logger.debug({ ...facts, duplicate: outcome.duplicate }, 'Authority Command applied');
        return outcome.duplicate ? 'duplicate' : 'accepted';
      }
      logger.debug({ ...facts, code: outcome.error.code, message: outcome.error.message }, 'Authority Command not applied');
      if (outcome.error.code === 'ACTION_ID_COLLISION') return 'duplicate';
      // A retryable refusal (busy, internal) is tried again next round; any other is remembered.
      if (ERROR_CODES[outcome.error.code].retryable) return 'failed';
      this.remember(draft.actionId);
      return 'refused';
    } catch (error) {
      logger.warn({ ...facts, err: error }, 'Authority Command failed');
      return 'failed';
    }
  }
}
