/**
 * Every reason the Scheduler refuses a Command, in one table. These are local decisions of the
 * Agent runtime, not wire errors (those are src/protocol/errorCodes.ts): an admission refusal
 * maps to the wire `declineReason` named here, which the runtime host names when it releases
 * owned work it refuses (hostAdmission.ts), so a Coordinator learns the kind of refusal
 * (capacity, deadline) and nothing about other Groups' queues behind it.
 */

import type { MissionWeaveWorkItem } from '../../protocol/schemas/wireTypes.js';

type DeclineReason = NonNullable<NonNullable<MissionWeaveWorkItem['offers']>[number]['declineReason']>;

interface RefusalEntry {
  /** Whether the refusal answers an admission (a WorkItem offered to this runtime). */
  readonly admission: boolean;
  /** The wire `declineReason` an admission refusal is declined with. */
  readonly declineReason: DeclineReason;
  /** Whether the same request may succeed later without any change to it. */
  readonly retryable: boolean;
  readonly meaning: string;
}

export const SCHEDULER_REFUSALS = {
  'duplicate-work-item': {
    admission: true,
    declineReason: 'other',
    retryable: false,
    meaning: 'The runtime already holds a WorkItem with this ID.',
  },
  'group-closed': {
    admission: true,
    declineReason: 'capacity',
    retryable: true,
    meaning: "The Group's policy has closed admissions on this runtime.",
  },
  'group-queue-full': {
    admission: true,
    declineReason: 'capacity',
    retryable: true,
    meaning: "The Group's queue holds its quota of ready and blocked WorkItems.",
  },
  'runtime-full': {
    admission: true,
    declineReason: 'capacity',
    retryable: true,
    meaning: 'The runtime holds MAX_HELD_WORK WorkItems over all its Groups.',
  },
  'too-many-groups': {
    admission: true,
    declineReason: 'capacity',
    retryable: true,
    meaning: 'The runtime schedules MAX_GROUPS Groups; a new one waits until one empties.',
  },
  'deadline-passed': {
    admission: true,
    declineReason: 'deadline',
    retryable: false,
    meaning: "The Work Contract's deadline is not after the time of admission.",
  },
  'invalid-request': {
    admission: true,
    declineReason: 'other',
    retryable: false,
    meaning: 'An ID is empty, or a time or number is not a finite value in range.',
  },
  'invalid-policy': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'A Group policy value is out of its range (schedulerLimits.ts).',
  },
  'unknown-work-item': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'The runtime holds no WorkItem with this ID.',
  },
  'not-running': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'The WorkItem has no run in a slot to checkpoint or end.',
  },
  'not-blocked': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'Only a blocked WorkItem can be unblocked.',
  },
  'not-ready': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'Only a ready WorkItem can be started by a directed pick (it is running or blocked).',
  },
  'no-free-slot': {
    admission: false,
    declineReason: 'other',
    retryable: true,
    meaning: 'Every execution slot holds a run; one must end or yield first.',
  },
  'group-at-quota': {
    admission: false,
    declineReason: 'other',
    retryable: true,
    meaning: "The WorkItem's Group holds its concurrency quota of slots.",
  },
  'no-safe-checkpoint': {
    admission: false,
    declineReason: 'other',
    retryable: false,
    meaning: 'The run has reported no safe durable checkpoint to yield at.',
  },
} as const satisfies Record<string, RefusalEntry>;

export type SchedulerRefusalCode = keyof typeof SCHEDULER_REFUSALS;

export function isSchedulerRefusalCode(value: string): value is SchedulerRefusalCode {
  return Object.hasOwn(SCHEDULER_REFUSALS, value);
}

/** The wire decline reason for an admission refusal. */
export function declineReasonOf(code: SchedulerRefusalCode): DeclineReason {
  return SCHEDULER_REFUSALS[code].declineReason;
}
