/**
 * What the Group Authority needs to run, independent of where it came from (a directory made
 * by `missionweave init`, a test, a benchmark).
 */

import type { OrganizationServices } from '../domain/model.js';
import type { CooperationLimits } from '../domain/policy/cooperationLimits.js';
import type { SigningKey } from '../protocol/signing/signDocument.js';
import type { PolicyLogLimits } from './policyLogLimits.js';
import type { VerificationLimits } from './verificationLimits.js';
import type { Tracing } from './tracing/tracing.js';

export interface FreshnessWindow {
  /** How old a newly presented Command's `issuedAt` may be. */
  readonly maxAgeSeconds: number;
  /** How far in the future `issuedAt` may be, for clock skew. */
  readonly maxFutureSkewSeconds: number;
}

export interface AuthoritySettings {
  readonly services: OrganizationServices;
  /** The Group Authority's Event-signing key; its binding names `services.authority`. */
  readonly authorityKey: SigningKey;
  /**
   * The Registry service's key (its binding names `services.registry`): it signs the Registry
   * snapshot this node publishes (`registryPublication.ts`); a node without it publishes none.
   */
  readonly registryKey?: SigningKey;
  readonly freshness: FreshnessWindow;
  /** Largest number of Commands drained into one write transaction. */
  readonly maxBatch: number;
  /** Write transactions this process runs at once (each on its own connection). */
  readonly writerConcurrency: number;
  /**
   * Worker threads that verify incoming Commands and sign Events; 0 does that work on the
   * main thread (simplest, and right for tools and small deployments).
   */
  readonly cryptoWorkers?: number;
  /** Each outsider's share of verification work; `DEFAULT_VERIFICATION_LIMITS` unless given. */
  readonly verificationLimits?: VerificationLimits;
  /** The Organization's cooperation limits (§20); `DEFAULT_COOPERATION_LIMITS` unless given. */
  readonly cooperationLimits?: CooperationLimits;
  /** The Policy Log recorder's bounds (§6.4); `DEFAULT_POLICY_LOG_LIMITS` unless given. */
  readonly policyLogLimits?: PolicyLogLimits;
  /**
   * The Organization-operated Agent that generates and signs Context Packages (§13.3), and its
   * key; absent, this node issues none (src/app/context/contextGenerator.ts).
   */
  readonly contextGenerator?: ContextGenerator;
  /** Operator metrics and `GET /metrics` (src/app/metrics/); on unless false (`MW_METRICS=off`). */
  readonly metrics?: boolean;
  /** Spans of the Command path (src/app/tracing/); off unless given (OTEL_EXPORTER_OTLP_ENDPOINT, `otlpTracing.ts`). */
  readonly tracing?: Tracing;
}

/**
 * The context generator: an Agent of the Organization, registered with an Agent Card like any
 * other, because the published Context Package schema names an Agent as `generatedBy` (§13.3).
 */
export interface ContextGenerator {
  readonly principal: { readonly type: 'agent'; readonly id: string };
  readonly key: SigningKey;
}

/** A clock reading in milliseconds; injected so tests and the domain never read the time. */
export interface Clock {
  nowMillis(): number;
}

export const systemClock: Clock = { nowMillis: () => Date.now() };
