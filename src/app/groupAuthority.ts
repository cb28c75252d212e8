/**
 * The Group Authority's application service: the one way a signed Command becomes accepted
 * facts. `submit` runs the stateless checks (`commandVerifier.ts`, behind the verification gate
 * for outsiders) and the stateful ones in a group-commit write transaction (`authorityQueues.ts`);
 * `enrolKey` is Registry administration for Principals without Agent Cards.
 */

import pino, { type Logger } from 'pino';
import type { Span } from '@opentelemetry/api';
import { LOG_REDACTION } from './authorization/logRedaction.js';
import type { JsonValue } from '../protocol/strictJson.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import type { KeyBindingEvidence } from '../protocol/signing/keyRegistry.js';
import { inTransaction, type Pool } from '../store/pool.js';
import { ensureEventAdmissionKey } from '../store/sql/eventAdmissions.js';
import { ensureOrganization, insertBinding, lockOrganization, updateOrganization } from '../store/sql/registry.js';
import { authorityQueues, type AuthorityQueues } from './authorityQueues.js';
import { CommandVerifier, type RawCommand } from './commandVerifier.js';
import { GroupStateCache } from './groupStates.js';
import type { CommandOutcome, DeliveredEvent } from './outcomes.js';
import { AncestorGroupCache } from './ancestorGroups.js';
import { GroupTreeCache } from './groupTrees.js';
import { profileSchemaDocuments, schemaRegistryWith } from './profiles.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { RegistryCache } from './registryCache.js';
import { loadRegistrySnapshot, registryDelta } from './registrySnapshot.js';
import { RegistryPublisher, type PublishedRegistry } from './registryPublication.js';
import { OrganizationStateCache } from './organizationStates.js';
import { notifyRegistryChanged, type OrganizationBatchDependencies } from './runOrganizationBatch.js';
import { systemClock, type AuthoritySettings, type Clock } from './settings.js';
import type { VerifiedCommand } from './verifyCommand.js';
import { CryptoPool } from './workers/cryptoPool.js';
import { VerificationGate } from './verificationGate.js';
import { PolicyLogRecorder, unrecordedError, type SubmissionOrigin } from './recordPolicyLog.js';
import { createAuthorityMetrics, DISABLED_METRICS, type AuthorityMetrics } from './metrics/authorityMetrics.js';
import { watchAuthority } from './metrics/authorityGauges.js';
import { claimedKind } from './metrics/commandTally.js';
import type { PipelineEvidence } from './evidence/pipelineEvidence.js';
import { evidenceFromEnvironment } from './evidence/evidenceFile.js';
import { endSpan, SpanKind, TRACING_OFF, type CommandTraceOrigin, type Tracing, type TraceParent } from './tracing/tracing.js';
import { tracedCommand } from './tracing/tracedCommand.js';

export type { RawCommand } from './commandVerifier.js';

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
  private readonly queues: AuthorityQueues;
  private readonly verifier: CommandVerifier;
  private readonly gate: VerificationGate;
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
    this.verifier = new CommandVerifier(this.deps, this.policyLog, this.logger);
    this.queues = authorityQueues({ deps: this.deps, logger: this.logger, metrics: this.metrics, tracing: this.tracing, spans: this.spans });
    watchAuthority(this.metrics, {
      pool: options.pool,
      commitQueueDepth: () => this.queues.group.depth + this.queues.organization.depth,
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
      ? await this.gate.run({ ...(origin.address === undefined ? {} : { address: origin.address }), ...(connection === undefined ? {} : { connection }) }, (goodStanding) => this.verifier.verifyRecorded(input, source, goodStanding, origin))
      : await this.verifier.verifyRecorded(input, source, true, origin);
    endSpan(verifying, front.ok ? undefined : front.error.code);
    if (!front.ok) {
      this.metrics.commandRefused(claimedKind(input), front.error.code);
      return { ok: false, error: front.error };
    }
    const command = tracedCommand(front.command, parent, span);
    if (span !== undefined) this.spans.set(command, span);
    const queue = command.scope === 'organization' ? this.queues.organization : this.queues.group;
    let outcome = await queue.submit(command);
    if (!outcome.ok && outcome.error.diagnostic !== undefined) {
      const diagnostic = { ...outcome.error.diagnostic, code: outcome.error.code };
      const error = await this.verifier.recordRefusal({ diagnostic, origin, document: front.command.document, signingHash: front.command.verified.signingHash }, outcome.error);
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
  refreshRegistry(): Promise<boolean> {
    return this.verifier.refreshRegistry();
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
