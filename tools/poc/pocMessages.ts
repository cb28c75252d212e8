/** What the PoC's Agent processes and the orchestrator (poc.ts) tell each other over IPC. */

import type { GroupPolicy } from '#src/client/runtime/schedulerTypes.js';
import type { MissionPlan, Stage } from './pocPlan.js';

export interface PocAgent {
  readonly name: string;
  readonly id: string;
  readonly keyId: string;
  readonly privateKeyPem: string;
}

export interface WorkerInit {
  readonly type: 'init';
  readonly agent: PocAgent;
  readonly url: string;
  readonly ca: string;
  readonly home: string;
  readonly slots: number;
  /** The job handler module the runtime host runs (`missionweave worker --handler`). */
  readonly handler: string;
  readonly seed: number;
  /** The scheduler's clock runs this many times faster than the wall clock (its 30 s minimum run before preemption, its aging). */
  readonly clockScale: number;
  readonly ownershipLeaseSeconds: number;
  readonly executionLeaseSeconds: number;
  readonly groups: readonly string[];
  readonly policies: Readonly<Record<string, GroupPolicy>>;
  /** The root Missions' Groups: each job asks for a token of one that is not its own, to see it refused. */
  readonly pocGroups: readonly string[];
}

/**
 * `hold`: the jobs of `groupId` running now take their next step no sooner than `release` (or
 * HOLD_BOUND_MS): a routine feature stays busy until a critical arrival, seconds away on a loaded
 * machine, has asked to preempt it (pocScenario.ts).
 */
export type ToWorker = WorkerInit | { readonly type: 'join'; readonly groupId: string } | { readonly type: 'hold'; readonly groupId: string } | { readonly type: 'release' };

export interface JobFacts {
  readonly groupId: string;
  readonly workItemId: string;
  readonly stage: string;
  /** Group IDs found anywhere in the context the job was handed (its Context Packages). */
  readonly contextGroups: readonly string[];
  readonly contextPackages: number;
  /** The Group and WorkItem of the capability token the job obtained with `job.token()`. */
  readonly tokenGroup: string | undefined;
  readonly tokenWorkItem: string | undefined;
  /** Why it obtained none (`lease-lost` when its lease went first). */
  readonly tokenError?: string;
  /** `job.token({ groupId })` of another Mission's Group was refused (null: none to ask for). */
  readonly foreignTokenRefused: boolean | null;
  readonly resumedFrom: number | null;
}

export type FromWorker =
  /** `resumableIds`: the WorkItems its projection rebuilt with a safe checkpoint (`resumable` of them). */
  | { readonly type: 'ready'; readonly recovery: { readonly resumable: number; readonly queued: number; readonly lost: number; readonly held: Readonly<Record<string, number>>; readonly resumableIds: readonly string[] } }
  | { readonly type: 'decision'; readonly decision: Readonly<Record<string, unknown>>; readonly held: Readonly<Record<string, number>> }
  | { readonly type: 'job'; readonly phase: 'started' | 'checkpoint' | 'yielded' | 'submitted' | 'refused' | 'failed'; readonly facts: JobFacts; readonly detail?: string }
  | { readonly type: 'log'; readonly line: string };

export interface CoordinatorInit {
  readonly type: 'init';
  readonly agent: PocAgent;
  readonly url: string;
  readonly ca: string;
  readonly home: string;
  readonly seed: number;
  readonly groupId: string;
  readonly missionId: string;
  readonly plan: MissionPlan;
  /** PoC Worker name → Agent ID. */
  readonly workers: Readonly<Record<string, string>>;
  /** Workers to admit as members first (a child Mission's Coordinator does). */
  readonly admit: readonly string[];
  /** For the parent Coordinator: who coordinates a child Mission it creates. */
  readonly childCoordinatorId?: string;
}

export type ToCoordinator =
  | CoordinatorInit
  | { readonly type: 'add-stage'; readonly stage: Stage }
  | { readonly type: 'reassign'; readonly stage: string; readonly worker: string }
  | { readonly type: 'redeliver' };

export type FromCoordinator =
  | { readonly type: 'ready'; readonly coordinatorEpoch: number }
  | { readonly type: 'action'; readonly action: string; readonly stage?: string; readonly outcome: string }
  | { readonly type: 'child-created'; readonly groupId: string; readonly missionId: string }
  | { readonly type: 'admitted'; readonly groupId: string; readonly worker: string }
  | { readonly type: 'redelivered'; readonly events: number; readonly actionsTaken: number }
  | { readonly type: 'log'; readonly line: string };
