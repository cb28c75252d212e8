/**
 * The cooperation limits of §20, each named once with why it has its value. They are
 * Organization policy: these are the defaults, and an Organization may configure others
 * (`DecisionContext.cooperationLimits`). §20 asks for guardrails, not fixed low protocol ceilings:
 * every limit may be passed once per Command with a Cooperation Override Grant from the
 * MissionOwner or the Authority, and a soft threshold below a rate limit tells the Coordinator
 * first.
 */

/** The cooperation policies a Cooperation Override Grant may name (the payload schema's enum). */
export const COOPERATION_POLICIES = [
  'message_rate',
  'proposal_rate',
  'delegation_depth',
  'queued_work_items',
  'active_work_items',
  'unresolved_clarifications',
  'duplicate_decomposition',
] as const;
export type CooperationPolicy = (typeof COOPERATION_POLICIES)[number];

export interface CooperationLimits {
  /** `message.post` per Agent per Group per rate window (humans are not rate-limited). */
  readonly messagesPerWindow: number;
  /** `work.propose` per Agent per Group per rate window. */
  readonly proposalsPerWindow: number;
  /** Deepest child Mission below a root Mission (the root is depth 0, §14). */
  readonly maxMissionDepth: number;
  /**
   * Deepest WorkItem a Delegation Grant's grantee works on below the Grant's target (the target is
   * depth 0, §9.1), and so the largest `maxDescendantDepth` a Grant may carry.
   */
  readonly maxDelegatedWorkDepth: number;
  /** WorkItems one Worker holds `queued` (accepted, not started) in one Group. */
  readonly maxQueuedWorkItems: number;
  /** WorkItems one Worker holds `active` in one Group. */
  readonly maxActiveWorkItems: number;
  /** WorkItems one Worker holds `blocked` (an open clarification round, `work.block`) in one Group. */
  readonly maxUnresolvedClarifications: number;
  /** Unfinished WorkItems and open Work Proposals of one Group asking for the same thing under one parent. */
  readonly maxDuplicateWork: number;
}

/** A cooperation limit a Command would pass (`cooperationPolicy.ts`, `decompositionLimits.ts`). */
export interface ExceededLimit {
  readonly policy: CooperationPolicy;
  readonly limit: number;
  /** The count the Command would make (or the depth it would reach). */
  readonly observed: number;
  /** When a rate window frees a place, for a retry without a grant. */
  readonly resetsAt?: string;
}

/**
 * The rate window: one minute, as the reference runtime counts. Long enough that a burst of a
 * few Messages is never refused, short enough that a looping Agent is stopped within a minute.
 */
export const RATE_WINDOW_MS = 60_000;

export const DEFAULT_COOPERATION_LIMITS: CooperationLimits = {
  /**
   * 600 a minute (10 a second, sustained, by one actor in one Group): above any conversation a
   * human or a reasoning Agent holds, and above the benchmark's writers (150 Messages per
   * writer per Group in a few seconds), so only a loop reaches it.
   */
  messagesPerWindow: 600,
  /**
   * 60 a minute: a proposal is a unit of work the Coordinator must read and judge; a Mission
   * plan of a few dozen items proposed at once fits, a proposal storm does not. Open proposals
   * are also bounded in number (`MAX_OPEN_PROPOSALS_PER_GROUP`).
   */
  proposalsPerWindow: 60,
  /**
   * Three levels of child Missions, as the reference runtime: a root Mission, its sub-Missions,
   * theirs and one more. Deeper recursion is usually a decomposition loop (§20); legitimate depth
   * takes an explicit grant (§14).
   */
  maxMissionDepth: 3,
  /**
   * Three levels below a Grant's target, like child Missions: a delegate splitting its target into
   * parts, those into steps, and one more. A delegate that nests deeper is usually decomposing in
   * a loop (§20), and every level is one more parent WorkItem a usage charge updates (§12);
   * legitimate depth takes an explicit grant.
   */
  maxDelegatedWorkDepth: 3,
  /** 100 accepted-but-not-started WorkItems per Worker: a backlog, not a hoard (reference default). */
  maxQueuedWorkItems: 100,
  /** 4 WorkItems running at once per Worker (reference default): more is rarely real parallelism. */
  maxActiveWorkItems: 4,
  /**
   * 5 unresolved clarification rounds per Worker (the reference runtime's
   * `maximum_unresolved_clarifications`). A round is a `work.block` (the Worker stops and asks)
   * until its `work.unblock`; a Worker that keeps opening questions without any being answered is
   * cooperating in circles (§20), and the questions are the Coordinator's to answer first.
   */
  maxUnresolvedClarifications: 5,
  /**
   * 3 alike: redundant execution (two or three Workers doing the same task, to compare or vote) is
   * a real pattern, while a decomposition loop re-proposing its own task produces dozens. The
   * fourth WorkItem or proposal asking for the same thing under the same parent is refused.
   */
  maxDuplicateWork: 3,
};

/**
 * The soft threshold, as a fraction of a rate limit: when an actor's count in the window first
 * reaches it, the Coordinator is told (`ext.missionweave.core.cooperation_threshold_reached`),
 * once per actor, policy and window, before anything is refused.
 */
export const SOFT_THRESHOLD_FRACTION = 0.8;

/**
 * Cooperation Override Grants kept per Group, consumed and lapsed included: each is a state row
 * read on every load. Only the MissionOwner and the Authority issue them, one per escalated
 * Command, so 1,000 is far beyond a Mission's escalations; past it `RATE_LIMITED`.
 */
export const MAX_COOPERATION_GRANTS_PER_GROUP = 1_000;

/** Timestamps kept per actor and rate policy: the largest limit an Organization may configure. */
export const MAX_RATE_WINDOW_ENTRIES = 10_000;

/** The soft threshold of `limit` (at least 1). */
export function softThreshold(limit: number): number {
  return Math.max(1, Math.floor(limit * SOFT_THRESHOLD_FRACTION));
}

declare module '../model.js' {
  interface DecisionContext {
    /** The Organization's cooperation limits (§20); `DEFAULT_COOPERATION_LIMITS` when absent. */
    readonly cooperationLimits?: CooperationLimits;
  }
}
