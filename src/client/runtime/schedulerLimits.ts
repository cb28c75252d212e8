/**
 * Every bound and timing of the Agent runtime's Scheduler (§11.1) and its schedule disclosure
 * (§11.2), in one place, with why it has its value. The Scheduler refuses work past a bound
 * (a typed refusal, schedulerRefusals.ts) rather than growing: one runtime serves many Groups,
 * and no Group's Coordinator may make it hold without limit what it holds for the others.
 */

/** Execution slots one runtime may declare: an Agent Card's concurrency is a handful, rarely more. */
export const MAX_SLOTS = 256;

/** Groups one runtime schedules at once; past it a new Group's first WorkItem is refused. */
export const MAX_GROUPS = 1_000;

/**
 * WorkItems held at once over all Groups (ready, running and blocked). Each is a few hundred
 * bytes of scheduling metadata, and the whole state is snapshotted as one JSON document; ten
 * thousand keep that document in the low megabytes.
 */
export const MAX_HELD_WORK = 10_000;

/** A Group's queue (ready and blocked WorkItems) unless its policy says otherwise. */
export const DEFAULT_GROUP_MAX_QUEUED = 100;

/** Largest per-Group queue a policy may set: one Group may use the whole runtime, no more. */
export const MAX_GROUP_MAX_QUEUED = MAX_HELD_WORK;

/** Largest Group weight. Weights are small integers (1:2:5); credits stay exact integers. */
export const MAX_GROUP_WEIGHT = 1_000;

/**
 * Inside a Group, a waiting WorkItem gains one rank point per this much waiting: a `routine`
 * WorkItem outranks a fresh `critical` one (three points apart) after half an hour, so urgency
 * reorders a Group's queue without starving its routine work.
 */
export const AGING_STEP_MS = 10 * 60_000;

/** Across Groups, the aging bonus of a Group's head grows over this wait and then stays full (bounded). */
export const CROSS_AGING_FULL_MS = 30 * 60_000;

/** A deadline starts to count this long before it, growing to its full bonus at the deadline. */
export const DEADLINE_HORIZON_MS = 60 * 60_000;

/**
 * A run younger than this is not asked to yield: a preemption costs a checkpoint and a resume,
 * and a run preempted as soon as it starts would thrash.
 */
export const MIN_RUN_BEFORE_PREEMPT_MS = 30_000;

/**
 * Cross-Group preemption needs the waiting Group's score to beat the running one's by this many
 * times the sum of the eligible weights: more than a priority class alone (1) with the small
 * effort and quota bonuses, so a higher class does not preempt by itself until its head has aged;
 * a higher class with an imminent deadline (1 + 1) does.
 */
export const CROSS_PREEMPT_MARGIN = 1.5;

/** Same-Group preemption needs this many rank points more (urgency and deadline, no aging): critical over normal. */
export const INTRA_PREEMPT_MARGIN = 2;

/**
 * What an effort band is planned to take in one slot, for the disclosure's estimates (§11.2).
 * Bands, not measurements: the runtime keeps no exact private durations.
 */
export const EFFORT_BAND_MS = {
  xs: 5 * 60_000,
  s: 15 * 60_000,
  m: 60 * 60_000,
  l: 4 * 60 * 60_000,
  xl: 12 * 60 * 60_000,
  unknown: 60 * 60_000,
} as const;

/** Disclosed times are rounded up to this: an estimate to the minute is all a Coordinator can use. */
export const DISCLOSURE_GRANULARITY_MS = 60_000;

/** A disclosure is re-published when a start or completion moves by at least this (a "material change"). */
export const MATERIAL_SHIFT_MS = 5 * 60_000;

/** A scheduler snapshot larger than this is refused on restore, as a corrupt projection would be. */
export const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;
