/**
 * One WorkItem running under an Execution Lease on the Worker's side (§11.3): the lease kept
 * renewed by a LeaseKeeper while the handler works, and the Commands that end the execution —
 * `checkpoint` (releases it, the WorkItem waits in its queue), `submit`, `fail` — each citing the
 * current Ownership Epoch and Lease ID. `signal` aborts with a LeaseLostError as soon as the
 * lease is known lost: a renewal refused, its expiry passed, an Event of the WorkItem showing
 * another owner, another epoch or a closed lease, or a new Session (which revokes the Agent's
 * leases). A Command sent after that is still sent: the Group Authority's clock decides, and a
 * fenced one is refused there (WORK_LEASE_EXPIRED / WORK_STALE_OWNERSHIP) — never completed.
 * `publishArtifact` uploads a result and publishes its signed manifest under the same lease
 * (workArtifacts.ts); `submit` takes what was published unless told otherwise, since only
 * published Artifacts of the WorkItem may be submitted (§13.1, §7.3).
 */

import type { ArtifactEndpoint, ArtifactSource } from './artifacts.js';
import type { MissionWeaveArtifactManifest } from '../protocol/schemas/payloadTypes.js';
import type { CommandOptions } from './commands.js';
import type { GroupEvent, ProtocolEvent } from './documents.js';
import { LEASE_LOSS_CODES, LeaseKeeper, type LeaseLossReason, type LeaseTerm } from './leaseKeeper.js';
import { AgentClientError, isAgentError } from './errors.js';
import type { OfflineExecution } from './offlineBuffer.js';
import { publishWorkArtifact, signWorkManifest, type ArtifactDetails, type ProducerCard, type PublishedArtifact } from './workArtifacts.js';
import { failureReport, signWorkEvidence, type WorkAgent } from './workEvidence.js';
import { LEASE_RENEW_KIND, WORK_LEASES_EXTENSION, workItemOf, workLeasesOf, type Evidence, type EvidenceDraft, type WorkCheckpointPayload, type WorkItemDocument, type WorkLease, type WorkLeaseGranted } from './workDocuments.js';

export type Checkpoint = Omit<WorkCheckpointPayload['checkpoint'], 'createdAt'> & { readonly createdAt?: string };

export interface ExecutionInit {
  readonly agent: WorkAgent;
  /** The `work.started` Event that granted the lease. */
  readonly started: ProtocolEvent;
  /** Local time the `work.start` Command was sent: the lease's local deadline counts from it. */
  readonly sentAt: number;
  /** Lease length asked for on each renewal. */
  readonly leaseSeconds: number;
  readonly renewAtFraction: number;
  /** Envelope options for this Group (Membership Epoch and the like), asked on every Command. */
  readonly options: (workItemId: string) => CommandOptions;
  /** The Artifact store of the live Session (`MissionWeaveAgent.artifactEndpoint`). */
  readonly store?: () => ArtifactEndpoint;
  /** The Agent Card Artifacts are published under (workArtifacts.ts). */
  readonly producer?: ProducerCard;
  readonly now?: () => number;
}

export class WorkExecution {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  private current: WorkItemDocument;
  private lease: WorkLease;
  private readonly keeper: LeaseKeeper;
  private readonly startedSequence: number;
  /** A Command that ends the execution is in flight: its own Events are not a fencing. */
  private ending = false;
  private ended = false;
  private readonly published: string[] = [];

  constructor(private readonly init: ExecutionInit) {
    const granted = init.started.payload as WorkLeaseGranted;
    this.groupId = init.started.groupId ?? granted.workItem.groupId;
    this.workItemId = granted.workItemId;
    this.ownershipEpoch = granted.ownershipEpoch;
    this.current = granted.workItem;
    this.lease = granted.executionLease;
    this.startedSequence = init.started.sequence ?? 0;
    this.keeper = new LeaseKeeper({ expiresAt: granted.executionLeaseExpiresAt, occurredAt: init.started.occurredAt }, init.sentAt, {
      renew: () => this.renew(),
      renewAtFraction: init.renewAtFraction,
      groupId: this.groupId,
      ...(init.now === undefined ? {} : { now: init.now }),
    });
  }

  /** Aborts, with a LeaseLostError as its reason, when the lease is lost. */
  get signal(): AbortSignal {
    return this.keeper.signal;
  }

  get leaseId(): string {
    return this.lease.leaseId;
  }

  get executionLease(): WorkLease {
    return this.lease;
  }

  get workItem(): WorkItemDocument {
    return this.current;
  }

  /** Renewals that succeeded so far. */
  get renewals(): number {
    return this.keeper.renewals;
  }

  /** `keeping` while the lease is held and renewed, `lost` once it is known lost, `stopped` once ended. */
  get leaseStatus(): 'keeping' | 'stopped' | 'lost' {
    return this.keeper.status;
  }

  /**
   * What an `OfflineBuffer` needs to buffer progress if the service is lost mid-execution
   * (§11.5); undefined while the Agent's Membership Epoch in the Group is unknown.
   */
  offlineExecution(): OfflineExecution | undefined {
    const { membershipEpoch } = this.init.options(this.workItemId);
    if (membershipEpoch === undefined) return undefined;
    return {
      agentId: this.init.agent.agentId,
      groupId: this.groupId,
      workItemId: this.workItemId,
      conversationId: this.current.conversationId,
      sessionEpoch: this.lease.sessionEpoch,
      membershipEpoch,
      ownershipEpoch: this.ownershipEpoch,
      executionLeaseId: this.lease.leaseId,
      executionLeaseExpiresAt: this.lease.expiresAt,
    };
  }

  /** Signs Evidence about this WorkItem as the Worker (§13.2). */
  evidence(draft: EvidenceDraft): Promise<Evidence> {
    return signWorkEvidence(this.init.agent, this.current, draft);
  }

  /** Records durable progress and releases the lease; the WorkItem waits, still owned, to be started again. */
  checkpoint(checkpoint: Checkpoint, options: { readonly resumeWithinSeconds?: number } = {}): Promise<ProtocolEvent> {
    const payload = { ...this.cited(), checkpoint: { ...checkpoint, createdAt: checkpoint.createdAt ?? new Date().toISOString() }, ...options };
    return this.end('work.checkpoint', payload);
  }

  /** The signed manifest `publishArtifact` would publish for this content, its store at `origin`; signed now, sent nowhere (kept offline). */
  signArtifactManifest(origin: URL | string, content: { readonly contentHash: string; readonly sizeBytes: number }, details: ArtifactDetails): Promise<MissionWeaveArtifactManifest> {
    return signWorkManifest({ agent: this.init.agent, producer: this.init.producer, workItem: this.current }, origin, content, details);
  }

  /** Content hashes this execution published, in order. */
  get publishedArtifactHashes(): readonly string[] {
    return [...this.published];
  }

  /**
   * Uploads `source` (a file, streamed, or bytes) to the Artifact store and publishes its signed
   * manifest — this Agent as producer; the Mission, Group and WorkItem of this execution — citing
   * the current Ownership Epoch and Execution Lease. Resolves with the content hash once
   * `artifact.published`; a refusal (a lost lease above all) rejects with its code.
   */
  async publishArtifact(source: ArtifactSource, details: ArtifactDetails): Promise<PublishedArtifact> {
    const store = this.init.store;
    if (store === undefined) throw new AgentClientError('INVALID_ARGUMENT', 'this execution has no Artifact store: start it with a MissionWeaveWorker');
    try {
      const published = await publishWorkArtifact({ agent: this.init.agent, store, producer: this.init.producer, workItem: this.current, cited: this.cited(), options: this.init.options(this.workItemId) }, source, details);
      this.published.push(published.contentHash);
      return published;
    } catch (error) {
      if (isAgentError(error) && LEASE_LOSS_CODES.has(error.code)) this.lose('refused', `artifact.publish was refused: ${error.code}`, error);
      throw error;
    }
  }

  /**
   * Submits the result: published Artifacts — by default every one this execution published —
   * and signed Evidence mapped to the acceptance criteria.
   */
  submit(result: { readonly artifactHashes?: readonly string[]; readonly evidence: readonly Evidence[] }): Promise<ProtocolEvent> {
    return this.end('work.submit', { ...this.cited(), artifactHashes: result.artifactHashes ?? this.publishedArtifactHashes, evidence: result.evidence });
  }

  /** Reports failure with failure Evidence: the given Evidence, else a signed `failure_report` saying `reason`. */
  async fail(reason: string, options: { readonly evidence?: readonly Evidence[] } = {}): Promise<ProtocolEvent> {
    const evidence = options.evidence ?? [await failureReport(this.init.agent, this.current, reason)];
    return this.end('work.fail', { ...this.cited(), reason, evidence });
  }

  /** One delivered Event: an Event of this WorkItem after the start may show the lease lost. */
  observe(event: GroupEvent): void {
    if (event.groupId !== this.groupId || event.sequence <= this.startedSequence || this.ending || this.ended) return;
    const workItem = workItemOf(event);
    if (workItem === undefined || workItem.workItemId !== this.workItemId || workItem.revision < this.current.revision) return;
    this.current = workItem;
    const loss = this.fencing(workItem);
    if (loss !== undefined) this.lose('fenced', `${event.kind} #${event.sequence}: ${loss}`);
  }

  /** The Agent's Session changed: a new Session Epoch revokes the leases of the old one (§11.3). */
  sessionChanged(sessionEpoch: number | undefined): void {
    if (sessionEpoch !== undefined && sessionEpoch !== this.lease.sessionEpoch) this.lose('session_replaced', `Session ${this.lease.sessionEpoch} was replaced by ${sessionEpoch}`);
  }

  /** Stops renewing (the handler is done without ending the execution, or the Worker is closing). */
  stop(): void {
    this.ended = true;
    this.keeper.stop();
  }

  private lose(reason: LeaseLossReason, message: string, cause?: unknown): void {
    this.keeper.lose(reason, message, cause);
  }

  private fencing(workItem: WorkItemDocument): string | undefined {
    const me = this.init.agent.agentId;
    if (workItem.owner?.agentId !== me || workItem.owner.ownershipEpoch !== this.ownershipEpoch) return 'the WorkItem has another owner or Ownership Epoch';
    if (workItem.state !== 'active') return `the WorkItem is ${workItem.state}`;
    if (workItem.extensions?.[WORK_LEASES_EXTENSION] === undefined) return undefined;
    const { execution } = workLeasesOf(workItem);
    if (execution?.leaseId !== this.lease.leaseId || execution.state !== 'active') return 'the Execution Lease was closed';
    return undefined;
  }

  private cited(): { workItemId: string; ownershipEpoch: number; executionLeaseId: string } {
    return { workItemId: this.workItemId, ownershipEpoch: this.ownershipEpoch, executionLeaseId: this.lease.leaseId };
  }

  private async renew(): Promise<LeaseTerm> {
    const payload = { ...this.cited(), leaseSeconds: this.init.leaseSeconds };
    const event = await this.init.agent.command(LEASE_RENEW_KIND, payload, this.init.options(this.workItemId));
    const granted = event.payload as Partial<WorkLeaseGranted>;
    if (granted.executionLease !== undefined) this.lease = granted.executionLease;
    if (granted.workItem !== undefined && granted.workItem.revision >= this.current.revision) this.current = granted.workItem;
    return { expiresAt: granted.executionLeaseExpiresAt ?? this.lease.expiresAt, occurredAt: event.occurredAt };
  }

  /** Sends a Command that ends the execution; renewal goes on until it is accepted. */
  private async end(kind: string, payload: Readonly<Record<string, unknown>>): Promise<ProtocolEvent> {
    this.ending = true;
    try {
      const event = await this.init.agent.command(kind, payload, this.init.options(this.workItemId));
      this.stop();
      const workItem = (event.payload as { workItem?: WorkItemDocument }).workItem;
      if (workItem !== undefined) this.current = workItem;
      return event;
    } catch (error) {
      if (isAgentError(error) && LEASE_LOSS_CODES.has(error.code)) this.lose('refused', `${kind} was refused: ${error.code}`, error);
      throw error;
    } finally {
      this.ending = false;
    }
  }
}
