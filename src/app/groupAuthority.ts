/**
 * The Group Authority's application service: the one way a signed Command becomes accepted
 * facts. `submit` runs the stateless checks here and the stateful ones in a group-commit write
 * transaction; `enrolKey` is Registry administration for Principals without Agent Cards.
 */

import pino, { type Logger } from 'pino';
import { LOG_REDACTION } from './authorization/logRedaction.js';
import type { JsonObject, JsonValue } from '../protocol/strictJson.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import type { KeyBindingEvidence } from '../protocol/signing/keyRegistry.js';
import { inTransaction, type Pool } from '../store/pool.js';
import { ensureEventAdmissionKey } from '../store/sql/eventAdmissions.js';
import { ensureOrganization, insertBinding, lockOrganization, updateOrganization } from '../store/sql/registry.js';
import { CommitQueue } from './commitQueue.js';
import { PARALLEL_BATCH_MIN } from './limits.js';
import { GroupStateCache } from './groupStates.js';
import { BatchConflict, type CommandOutcome, type DeliveredEvent } from './outcomes.js';
import { lockedGroupsOf } from './batchPreloads.js';
import { AncestorGroupCache } from './ancestorGroups.js';
import { GroupTreeCache } from './groupTrees.js';
import { profileSchemaDocuments, schemaRegistryWith } from './profiles.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { RegistryCache } from './registryCache.js';
import { loadRegistrySnapshot, registryDelta } from './registrySnapshot.js';
import { runGroupBatch } from './runGroupBatch.js';
import { RegistryPublisher, type PublishedRegistry } from './registryPublication.js';
import { OrganizationStateCache } from './organizationStates.js';
import { notifyRegistryChanged, runOrganizationBatch, type OrganizationBatchDependencies } from './runOrganizationBatch.js';
import { systemClock, type AuthoritySettings, type Clock } from './settings.js';
import { commandFromWorker, verifyCommandBytes, verifyCommandValue, type FrontResult, type VerifiedCommand } from './verifyCommand.js';
import { CryptoPool } from './workers/cryptoPool.js';
import { InlineVerifyPolicy } from './workers/inlineVerify.js';
import { VerificationGate } from './verificationGate.js';
import { afterGroupCommit } from './failpoints.js';
import { wireError, type WireError } from './wireError.js';
import { PolicyLogRecorder, unrecordedError, type Refusal, type SubmissionOrigin } from './recordPolicyLog.js';
import { createAuthorityMetrics, DISABLED_METRICS, type AuthorityMetrics } from './metrics/authorityMetrics.js';
import { watchAuthority } from './metrics/authorityGauges.js';
import { claimedKind } from './metrics/commandTally.js';
import type { PipelineEvidence } from './evidence/pipelineEvidence.js';
import { evidenceFromEnvironment } from './evidence/evidenceFile.js';
import { endSpan, SpanKind, TRACING_OFF, type BatchPhases, type CommandTraceOrigin, type Tracing, type TraceParent } from './tracing/tracing.js';
import { tracedCommand } from './tracing/tracedCommand.js';
import type { Span } from '@opentelemetry/api';

/**
 * Failures after which the Registry is caught up with the database before refusing: those
 * another node's recent Registry change could explain, and a known key's bad signature too, so
 * that refusing an unknown key takes no longer than refusing a known one (the time of a refusal
 * must not tell which key IDs exist).
 */
function refreshBeforeRefusing(diagnostic: VerificationFailure | undefined): boolean {
  return diagnostic !== undefined && (diagnostic.stage === 'key-resolution' || diagnostic.stage === 'admission' || diagnostic.stage === 'signature');
}

/**
 * The exact text a Command arrived in, so that a crypto worker can verify it: a whole COMMAND
 * frame (`frame`: verify its `command`), or the Command itself (an HTTPS body).
 */
export interface RawCommand {
  readonly text: string;
  readonly frame: boolean;
}

/** Outsiders' Commands pass the verification gate; the CLI's and HELLO's own do not. */
const GATED: ReadonlySet<SubmissionOrigin['transport']> = new Set(['wss', 'https']);

export interface GroupAuthorityOptions {
  readonly pool: Pool;
  readonly settings: AuthoritySettings;
  readonly clock?: Clock;
  readonly schemas?: SchemaRegistry;
  readonly logger?: Logger;
  /**
   * The Command and Event kinds this Group Authority accepts: the core ones and those of the
   * Extension Profiles it runs (§18), built by the composition root and handed down from here.
   */
  readonly kinds: KindRegistry;
  /**
   * Told what each Command's rules decided (conformance evidence, §22). By default the recorder
   * `npm test` asks for through `MW_CONFORMANCE_EVIDENCE`, and none elsewhere.
   */
  readonly evidence?: PipelineEvidence;
}

/** A submission's outcome, with the verified Command when it got that far. */
export type Submission = CommandOutcome & { readonly command?: VerifiedCommand };

/** PostgreSQL says "try again" with these: lost races, not faults. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '23505']);

function isRetryable(error: unknown): boolean {
  if (error instanceof BatchConflict) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/** Told of every Command's fresh Events once they are committed. */
export type CommitListener = (events: readonly DeliveredEvent[]) => void;

export class GroupAuthority {
  readonly logger: Logger;
  readonly policyLog: PolicyLogRecorder;
  /** This node's operator metrics (src/app/metrics/authorityMetrics.ts); the listener adds its own and serves them. */
  readonly metrics: AuthorityMetrics;
  /** Spans of the Command path (src/app/tracing/); off unless the settings give a tracer. */
  readonly tracing: Tracing;
  /** Each traced Command's `command.receive` span, for its batch's phase spans. */
  private readonly spans = new WeakMap<VerifiedCommand, Span>();
  private readonly listeners: CommitListener[] = [];
  private readonly deps: OrganizationBatchDependencies;
  private readonly groupQueue: CommitQueue<VerifiedCommand, CommandOutcome>;
  private readonly organizationQueue: CommitQueue<VerifiedCommand, CommandOutcome>;
  private readonly gate: VerificationGate;
  /** Whether the main thread verifies a Command itself rather than handing it to a worker. */
  private readonly inlineVerify = new InlineVerifyPolicy();
  private readonly publisher: RegistryPublisher;

  private constructor(options: GroupAuthorityOptions, registry: RegistryCache, crypto: CryptoPool | undefined, kinds: KindRegistry) {
    this.logger = options.logger ?? pino({ level: 'info', redact: LOG_REDACTION }, pino.destination(2));
    const evidence = options.evidence ?? evidenceFromEnvironment();
    this.deps = {
      crypto,
      pool: options.pool,
      settings: options.settings,
      clock: options.clock ?? systemClock,
      registry,
      states: new GroupStateCache(kinds),
      ancestry: new AncestorGroupCache(),
      trees: new GroupTreeCache(),
      schemas: options.schemas ?? schemaRegistryWith(profileSchemaDocuments(kinds.profiles)),
      organization: new OrganizationStateCache(),
      kinds,
      ...(evidence === undefined ? {} : { evidence }),
    };
    this.policyLog = new PolicyLogRecorder(options.pool, this.deps.clock, this.logger, options.settings.policyLogLimits);
    this.metrics = options.settings.metrics === false ? DISABLED_METRICS : createAuthorityMetrics((kind) => kinds.kind(kind) !== undefined);
    this.tracing = options.settings.tracing ?? TRACING_OFF;
    this.gate = new VerificationGate(() => this.deps.clock.nowMillis(), options.settings.verificationLimits);
    const { services, registryKey, contextGenerator } = options.settings;
    this.publisher = new RegistryPublisher({
      organizationId: services.organizationId,
      registryService: services.registry,
      registryKey,
      contextGenerator: contextGenerator?.principal,
      nowMillis: () => this.deps.clock.nowMillis(),
    });
    const failed = (item: VerifiedCommand, error: unknown): CommandOutcome => {
      this.logger.error({ err: error, actionId: item.envelope.actionId, kind: item.envelope.kind }, 'write transaction failed');
      this.deps.states.invalidate([item.envelope.groupId ?? '']);
      return { ok: false, error: wireError('INTERNAL_ERROR', '', { relatedActionId: item.envelope.actionId }) };
    };
    this.groupQueue = new CommitQueue({
      maxBatch: options.settings.maxBatch,
      concurrency: options.settings.writerConcurrency,
      parallelMin: PARALLEL_BATCH_MIN,
      keysOf: (c) => lockedGroupsOf(kinds, c),
      run: async (items) => {
        const started = performance.now();
        const phases: BatchPhases | undefined = this.tracing.on ? { started } : undefined;
        const outcomes = await runGroupBatch(items, this.deps, phases);
        if (phases !== undefined) this.tracing.batchSpans(items.map((item) => this.spans.get(item)), phases);
        afterGroupCommit();
        this.metrics.batchCommitted('group', items.length, (performance.now() - started) / 1000);
        this.logger.debug({ commands: items.length, ms: Math.round(performance.now() - started) }, 'Group batch committed');
        return outcomes;
      },
      isRetryable,
      failed,
    });
    this.organizationQueue = new CommitQueue({
      maxBatch: options.settings.maxBatch,
      concurrency: 1,
      keysOf: () => ['organization'],
      run: async (items) => {
        const started = performance.now();
        const outcomes = await runOrganizationBatch(items, this.deps);
        if (this.tracing.on) this.tracing.batchSpans(items.map((item) => this.spans.get(item)), { started, committed: performance.now() });
        this.metrics.batchCommitted('organization', items.length, (performance.now() - started) / 1000);
        return outcomes;
      },
      isRetryable,
      failed,
    });
    watchAuthority(this.metrics, {
      pool: options.pool,
      commitQueueDepth: () => this.groupQueue.depth + this.organizationQueue.depth,
      ...(crypto === undefined ? {} : { cryptoQueueDepth: () => crypto.queueDepth }),
    });
  }

  /** Prepares the Organization row and what this node's Events' First-Admission Records name, and loads the Registry. */
  static async start(options: GroupAuthorityOptions): Promise<GroupAuthority> {
    const organizationId = options.settings.services.organizationId;
    await ensureOrganization(options.pool, organizationId);
    const { authority } = options.settings.services;
    await ensureEventAdmissionKey(options.pool, { keyId: options.settings.authorityKey.keyId, organizationId, principal: authority, acceptedBy: authority });
    const snapshot = await loadRegistrySnapshot(options.pool, organizationId);
    const registry = new RegistryCache(snapshot, organizationId);
    const workers = options.settings.cryptoWorkers ?? 0;
    const { kinds } = options;
    const { profiles } = kinds;
    let crypto: CryptoPool | undefined;
    if (workers > 0) {
      crypto = await CryptoPool.start({
        size: workers,
        organizationId,
        authorityKey: options.settings.authorityKey,
        profileSchemas: profileSchemaDocuments(profiles),
        extensionUris: [...kinds.extensionUris],
      });
      await crypto.syncRegistry(snapshot.revision, snapshot.registry.evidence().bindings, true);
      const pool = crypto;
      registry.onChange((previous, next) => void pool.syncRegistry(next.revision, registryDelta(previous, next), false));
    }
    return new GroupAuthority(options, registry, crypto, kinds);
  }

  /** Writes the Policy Log records still buffered; stops the crypto workers. */
  async close(): Promise<void> {
    await this.policyLog.close();
    await this.deps.crypto?.close();
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  get settings(): AuthoritySettings {
    return this.deps.settings;
  }

  get schemas(): SchemaRegistry {
    return this.deps.schemas;
  }

  get kinds(): KindRegistry {
    return this.deps.kinds;
  }

  get registry(): RegistryCache {
    return this.deps.registry;
  }

  /**
   * The stateless checks: on a crypto worker when there are any and the input is text, unless
   * the origin may be verified here (`mayInline`: not an outsider in bad standing) and the main
   * thread has room (`InlineVerifyPolicy`).
   */
  private async front(input: Uint8Array | JsonValue, raw: RawCommand | undefined, mayInline: boolean): Promise<FrontResult> {
    const snapshot = this.deps.registry.current;
    const crypto = this.deps.crypto;
    const source = raw ?? (input instanceof Uint8Array ? { text: Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8'), frame: false } : undefined);
    if (crypto !== undefined && source !== undefined && !(mayInline && this.inlineVerify.inline(source.text.length))) {
      const reply = await crypto.verify(source.text, source.frame);
      if (reply.type === 'rejected') return { ok: false, error: reply.error, ...(reply.diagnostic === undefined ? {} : { diagnostic: reply.diagnostic }) };
      if (reply.type === 'verified') {
        const parsed = raw !== undefined && !(input instanceof Uint8Array) ? (input as JsonObject) : undefined;
        const command = commandFromWorker(reply.canonical, reply.signingHash, reply.keyId, reply.registryRevision, this.deps.registry.current.registry, this.deps.kinds, parsed, reply.embedded);
        if (command !== undefined) return { ok: true, command };
      }
    }
    return input instanceof Uint8Array
      ? verifyCommandBytes(input, snapshot, this.deps.schemas, this.deps.kinds)
      : verifyCommandValue(input, snapshot, this.deps.schemas, this.deps.kinds);
  }

  /** The stateless checks, again on a Registry caught up with the database where a refusal calls for it. */
  private async verify(input: Uint8Array | JsonValue, raw: RawCommand | undefined, mayInline: boolean): Promise<FrontResult> {
    const front = await this.front(input, raw, mayInline);
    if (front.ok || !refreshBeforeRefusing(front.diagnostic)) return front;
    let moved: boolean;
    try {
      moved = await this.refreshRegistry();
    } catch (error) {
      // No Registry change explains a bad signature: with the database away it is still refused.
      if (front.diagnostic?.stage === 'signature') return front;
      throw error;
    }
    return moved ? this.front(input, raw, mayInline) : front;
  }

  /**
   * The stateless checks, and a refusal's Policy Log record committed before the refusal is
   * returned (§6.4); inside an outsider's turn of the verification gate, so that a flooder's
   * refusals waiting on the record count toward its own share. A refusal that could not be
   * recorded is answered as such (`unrecordedError`), never as the refusal.
   */
  private async verifyRecorded(input: Uint8Array | JsonValue, source: RawCommand | undefined, mayInline: boolean, origin: SubmissionOrigin): Promise<FrontResult> {
    const front = await this.verify(input, source, mayInline);
    if (front.ok || front.diagnostic === undefined) return front;
    if (front.diagnostic.code === 'AUTH_INVALID_SIGNATURE') {
      this.logger.info({ stage: front.diagnostic.stage, reason: front.diagnostic.reason }, 'signed Command rejected');
    }
    const error = await this.recordRefusal({ diagnostic: front.diagnostic, origin, document: input }, front.error);
    return { ok: false, error };
  }

  /** Records a refusal and returns what to answer: `error` once it is recorded. */
  private async recordRefusal(refusal: Refusal, error: WireError): Promise<WireError> {
    const outcome = await this.policyLog.record(refusal);
    return outcome === 'recorded' ? error : unrecordedError(outcome, error.relatedActionId);
  }

  /**
   * Submits one signed Command given as untrusted bytes or as a strictly parsed value. A
   * WebSocket COMMAND frame passes its raw text too (a string), an HTTPS request its body, so a
   * worker can verify it. Outsiders' Commands (wss, https) pass the verification gate of their
   * connection and address, and are refused RATE_LIMITED unverified while the Policy Log holds
   * as many refusals as it may. Refusals with a protected diagnostic are answered only once
   * their Policy Log record, with `origin`, is committed.
   */
  async submit(input: Uint8Array | JsonValue, raw?: string | RawCommand, origin: SubmissionOrigin = { transport: 'cli' }, connection?: object, from?: CommandTraceOrigin): Promise<Submission> {
    if (!this.tracing.on) return this.submitting(input, raw, origin, connection, from?.brought, undefined);
    // Under the HTTPS request's span; a WebSocket COMMAND frame's trace starts here.
    const parent = from?.context ?? from?.brought?.context;
    const span = this.tracing.start('command.receive', parent, { 'missionweave.transport': origin.transport }, { kind: parent === undefined ? SpanKind.SERVER : SpanKind.INTERNAL });
    try {
      const submission = await this.submitting(input, raw, origin, connection, from?.brought, span);
      endSpan(span, submission.ok ? undefined : submission.error.code);
      return submission;
    } catch (error) {
      endSpan(span, 'INTERNAL_ERROR');
      throw error;
    }
  }

  /**
   * `submit`, with the Command's `command.receive` span when tracing is on. A `parent` trace
   * context (an HTTPS request's `traceparent`) goes on to the primary Event's trace-context
   * extension: this Command's span when tracing is on, the caller's own context otherwise.
   */
  private async submitting(input: Uint8Array | JsonValue, raw: string | RawCommand | undefined, origin: SubmissionOrigin, connection: object | undefined, parent: TraceParent | undefined, span: Span | undefined): Promise<Submission> {
    const submittedAt = performance.now();
    const source = typeof raw === 'string' ? { text: raw, frame: true } : raw;
    const gated = GATED.has(origin.transport);
    if (gated && this.policyLog.saturated) {
      this.metrics.commandRefused(claimedKind(input), 'RATE_LIMITED');
      return { ok: false, error: unrecordedError('saturated') };
    }
    const verifying = span === undefined ? undefined : this.tracing.start('command.verify', span);
    const front = gated
      ? await this.gate.run({ ...(origin.address === undefined ? {} : { address: origin.address }), ...(connection === undefined ? {} : { connection }) }, (goodStanding) => this.verifyRecorded(input, source, goodStanding, origin))
      : await this.verifyRecorded(input, source, true, origin);
    endSpan(verifying, front.ok ? undefined : front.error.code);
    if (!front.ok) {
      this.metrics.commandRefused(claimedKind(input), front.error.code);
      return { ok: false, error: front.error };
    }
    const command = tracedCommand(front.command, parent, span);
    if (span !== undefined) this.spans.set(command, span);
    const queue = command.scope === 'organization' ? this.organizationQueue : this.groupQueue;
    let outcome = await queue.submit(command);
    if (!outcome.ok && outcome.error.diagnostic !== undefined) {
      const diagnostic = { ...outcome.error.diagnostic, code: outcome.error.code };
      const error = await this.recordRefusal({ diagnostic, origin, document: front.command.document, signingHash: front.command.verified.signingHash }, outcome.error);
      outcome = { ok: false, error };
    }
    if (outcome.ok) this.metrics.commandAccepted(front.command.envelope.kind, outcome.duplicate, submittedAt);
    else this.metrics.commandRefused(front.command.envelope.kind, outcome.error.code);
    if (outcome.ok && !outcome.duplicate) {
      const delivering = span === undefined ? undefined : this.tracing.start('command.deliver', span, { 'missionweave.events': outcome.events.length });
      for (const listener of this.listeners) listener(outcome.events);
      endSpan(delivering);
    }
    return { ...outcome, command };
  }


  /**
   * Catches up with Registry changes made by other nodes; true when the Registry moved. Called
   * before refusing a signature for an unknown or not-yet-valid key, and on the hint other nodes
   * send when they change the Registry.
   */
  async refreshRegistry(): Promise<boolean> {
    const before = this.deps.registry.current.revision;
    return (await this.deps.registry.refresh(this.deps.pool)).revision !== before;
  }

  /**
   * The published Registry snapshot (`registryPublication.ts`), caught up with the database: the
   * public key bindings as a §6.4 verifier loads them, signed by the Registry service.
   */
  registryExport(): Promise<PublishedRegistry> {
    return this.publisher.current(this.deps.registry, this.deps.pool);
  }

  /** Registers a listener for committed Events (delivery fans them out without a read). */
  onCommitted(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  /** Registry administration: binds a key of a human or service Principal. */
  async enrolKey(binding: KeyBindingEvidence): Promise<void> {
    const organizationId = this.deps.settings.services.organizationId;
    const snapshot = await inTransaction(this.deps.pool, async (client) => {
      const org = await lockOrganization(client, organizationId);
      const current = await this.deps.registry.ensure(client, org.registryRevision);
      const registry = current.registry.extend([binding]);
      const revision = org.registryRevision + 1;
      await insertBinding(client, binding, revision);
      await updateOrganization(client, organizationId, { registryRevision: revision, lastPosition: org.lastPosition });
      await notifyRegistryChanged(client, revision);
      return { ...current, registry, revision };
    });
    this.deps.registry.install(snapshot);
  }
}
