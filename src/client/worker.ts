/**
 * `MissionWeaveWorker`: the Worker's side of governed work (§10.3, §11.3) on a MissionWeaveAgent.
 *
 * ```ts
 * const worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 60 });
 * worker.onOffer(async (offer) => {
 *   await worker.run(offer, async (execution) => {           // accept → start → handler
 *     const report = await doTheWork(execution.workItem.contract, execution.signal);   // bytes or { path }
 *     const { contentHash } = await execution.publishArtifact({ bytes: report }, { mediaType: 'application/json', schemaUri: '…' });
 *     const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: ['c1'], method: '…', result: 'passed', artifactHashes: [contentHash] });
 *     await execution.submit({ evidence: [evidence] });                     // the Artifacts it published
 *   });
 * });
 * ```
 *
 * Offers arrive as Events: a `work.offer.created` naming this Agent among its candidates reaches
 * it through any attention filter (its Event type's `addressees`, domain/workItem/workAddressees.ts) and, on replay, from its Cursor;
 * one already expired is not handed over. Offer handlers run beside the Event stream, never in
 * it, so the Events that tell an execution its lease is lost keep flowing while work runs.
 * `accept` wins the WorkItem under a new Ownership Epoch (WORK_ALREADY_OWNED or
 * WORK_OFFER_EXPIRED when another candidate or the clock was first); `start` begins an Execution
 * Lease that a WorkExecution keeps renewed until it is checkpointed, submitted, failed or lost.
 * `run` does all three and, when the handler throws while the lease is still held, reports the
 * failure (`work.fail` with a signed failure_report) before rethrowing.
 */

import type { MissionWeaveAgent } from './agent.js';
import type { GroupEvent } from './documents.js';
import { GroupEpochs } from './groupEpochs.js';
import { LEASE_RENEW_FRACTION, MAX_OPEN_OFFERS } from './limits.js';
import type { ArtifactEndpoint } from './artifacts.js';
import type { ProducerCard } from './workArtifacts.js';
import type { WorkAgent } from './workEvidence.js';
import { WorkExecution } from './workExecution.js';
import { payloadOf, workItemOf, type SelectionBasis, type WorkItemDocument, type WorkLease, type WorkOfferAccepted, type WorkOfferCreated } from './workDocuments.js';

/** An offer addressed to this Agent, as its `work.offer.created` Event made it. */
export interface WorkOffer {
  readonly groupId: string;
  readonly workItemId: string;
  readonly workItem: WorkItemDocument;
  readonly offerExpiresAt: string;
  readonly selectionBasis: SelectionBasis;
  readonly event: GroupEvent;
}

/** A WorkItem this Agent owns under `ownershipEpoch` (queued: accepted, not yet started). */
export interface OwnedWork {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly workItem: WorkItemDocument;
  readonly ownershipLease?: WorkLease;
}

export interface WorkerOptions {
  /** Ownership lease asked for on acceptance (the start-by window); the server's default otherwise. */
  readonly ownershipLeaseSeconds?: number;
  /** Execution Lease asked for on start and on each renewal; the server's default (300 s) otherwise. */
  readonly executionLeaseSeconds?: number;
  /** The fraction of the lease after which it is renewed (default LEASE_RENEW_FRACTION). */
  readonly renewAtFraction?: number;
  /** Epochs shared with other helpers of the same Agent; a new book learnt from Events otherwise. */
  readonly epochs?: GroupEpochs;
  /** The Agent Card Artifacts are published under; version 1 and the WorkItem's capabilities otherwise (workArtifacts.ts). */
  readonly producer?: ProducerCard;
  /** What signs and sends the Worker's Commands (outboxCommands.ts keeps them in a durable outbox first); the Agent otherwise. */
  readonly commands?: WorkAgent;
}

/** Adds `item` to `list`; returns its remover. */
export function adding<T>(list: T[], item: T): () => void {
  list.push(item);
  return () => {
    const index = list.indexOf(item);
    if (index >= 0) list.splice(index, 1);
  };
}

/** The server's default Execution Lease (work.start schema), used to size renewals when none is asked. */
const DEFAULT_EXECUTION_LEASE_SECONDS = 300;

export class MissionWeaveWorker {
  readonly epochs: GroupEpochs;
  private readonly agent: WorkAgent;
  private readonly store: () => ArtifactEndpoint;
  private readonly offerHandlers: ((offer: WorkOffer) => Promise<void> | void)[] = [];
  private readonly errorHandlers: ((error: unknown, offer: WorkOffer) => void)[] = [];
  private readonly open = new Map<string, WorkOffer>();
  private readonly running = new Set<WorkExecution>();
  private readonly detach: (() => void)[];

  constructor(agent: MissionWeaveAgent, private readonly options: WorkerOptions = {}) {
    this.agent = options.commands ?? agent;
    this.store = () => agent.artifactEndpoint();
    this.epochs = options.epochs ?? new GroupEpochs(agent.agentId);
    this.detach = [
      agent.onEvent((event) => this.observe(event)),
      agent.onConnectionChange((change) => {
        if (change.state === 'open') for (const execution of this.running) execution.sessionChanged(change.sessionEpoch);
      }),
    ];
  }

  /** What signs and sends this Worker's Commands: `options.commands` (a durable outbox) or the Agent. */
  get commands(): WorkAgent {
    return this.agent;
  }

  /** Called with each live offer to this Agent, beside the Event stream; returns a remover. */
  onOffer(handler: (offer: WorkOffer) => Promise<void> | void): () => void {
    return adding(this.offerHandlers, handler);
  }

  /** Called when an offer handler throws or rejects. */
  onError(handler: (error: unknown, offer: WorkOffer) => void): () => void {
    return adding(this.errorHandlers, handler);
  }

  /** Offers seen and not yet taken, lost or expired. */
  offers(): readonly WorkOffer[] {
    return [...this.open.values()].filter((offer) => Date.parse(offer.offerExpiresAt) > Date.now());
  }

  /** Accepts an offer: resolves once this Agent owns the WorkItem under a new Ownership Epoch. */
  async accept(offer: Pick<WorkOffer, 'groupId' | 'workItemId'>, options: { readonly ownershipLeaseSeconds?: number } = {}): Promise<OwnedWork> {
    const seconds = options.ownershipLeaseSeconds ?? this.options.ownershipLeaseSeconds;
    const payload = { workItemId: offer.workItemId, ...(seconds === undefined ? {} : { ownershipLeaseSeconds: seconds }) };
    const event = await this.agent.command('work.accept_offer', payload, this.commandOptions(offer.groupId, offer.workItemId));
    this.open.delete(offer.workItemId);
    const accepted = event.payload as WorkOfferAccepted;
    return { groupId: offer.groupId, workItemId: offer.workItemId, ownershipEpoch: accepted.ownershipEpoch, workItem: accepted.workItem, ownershipLease: accepted.ownershipLease };
  }

  /** Starts an owned WorkItem under a new Execution Lease, kept renewed from now on. */
  async start(owned: OwnedWork, options: { readonly executionLeaseSeconds?: number } = {}): Promise<WorkExecution> {
    const seconds = options.executionLeaseSeconds ?? this.options.executionLeaseSeconds;
    const payload = { workItemId: owned.workItemId, ownershipEpoch: owned.ownershipEpoch, ...(seconds === undefined ? {} : { executionLeaseSeconds: seconds }) };
    const sentAt = Date.now();
    const started = await this.agent.command('work.start', payload, this.commandOptions(owned.groupId, owned.workItemId));
    const execution = new WorkExecution({
      agent: this.agent,
      started,
      sentAt,
      leaseSeconds: seconds ?? DEFAULT_EXECUTION_LEASE_SECONDS,
      renewAtFraction: this.options.renewAtFraction ?? LEASE_RENEW_FRACTION,
      options: (workItemId) => this.commandOptions(owned.groupId, workItemId),
      store: this.store,
      ...(this.options.producer === undefined ? {} : { producer: this.options.producer }),
    });
    this.running.add(execution);
    execution.signal.addEventListener('abort', () => this.running.delete(execution), { once: true });
    execution.sessionChanged(this.agent.sessionEpoch);
    return execution;
  }

  /**
   * Accepts (for an offer), starts and hands the execution to `handler`, keeping the lease
   * renewed while it runs; renewal stops when it returns. A handler that throws while the lease
   * is held gets its failure reported (`work.fail`) before the error is rethrown.
   */
  async run<T>(work: WorkOffer | OwnedWork, handler: (execution: WorkExecution) => Promise<T>): Promise<T> {
    const owned = 'ownershipEpoch' in work ? work : await this.accept(work);
    const execution = await this.start(owned);
    try {
      return await handler(execution);
    } catch (error) {
      if (execution.leaseStatus === 'keeping') await execution.fail((error as Error)?.message || String(error)).catch(() => undefined);
      throw error;
    } finally {
      execution.stop();
      this.running.delete(execution);
    }
  }

  /** Stops listening and renewing; executions in progress lose nothing on the server until their leases run out. */
  close(): void {
    for (const remove of this.detach) remove();
    for (const execution of this.running) execution.stop();
    this.running.clear();
  }

  private commandOptions(groupId: string, workItemId: string): { groupId: string; workItemId: string; membershipEpoch?: number } {
    const membershipEpoch = this.epochs.facts(groupId)?.membershipEpoch;
    return { groupId, workItemId, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) };
  }

  private observe(event: GroupEvent): void {
    this.epochs.observe(event);
    for (const execution of this.running) execution.observe(event);
    const workItem = workItemOf(event);
    if (workItem !== undefined && workItem.state !== 'offered') this.open.delete(workItem.workItemId);
    const offer = payloadOf<WorkOfferCreated>(event, 'work.offer.created');
    if (offer === undefined || !offer.candidateAgentIds.includes(this.agent.agentId)) return;
    if (Date.parse(offer.offerExpiresAt) <= Date.now()) return;
    const open: WorkOffer = { groupId: event.groupId, workItemId: offer.workItemId, workItem: offer.workItem, offerExpiresAt: offer.offerExpiresAt, selectionBasis: offer.selectionBasis, event };
    this.open.delete(open.workItemId);
    this.open.set(open.workItemId, open);
    if (this.open.size > MAX_OPEN_OFFERS) this.open.delete(this.open.keys().next().value as string);
    for (const handler of [...this.offerHandlers]) {
      // Beside the stream: an Event handler awaiting the work would hold back the Events it needs.
      void Promise.resolve()
        .then(() => handler(open))
        .catch((error: unknown) => {
          for (const report of [...this.errorHandlers]) report(error, open);
        });
    }
  }
}
