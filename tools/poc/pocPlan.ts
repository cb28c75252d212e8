/**
 * The proof of concept's Missions as graphs of stages (§22): each stage is one WorkItem whose
 * Work Contract names the stages it depends on (§10.4). Pure: the Coordinator processes derive
 * every decision from a plan and the WorkItems they have seen, so a replacement Coordinator or a
 * restarted one takes the same decisions (coordinatorLogic.ts).
 */

import { createHash } from 'node:crypto';
import type { EffortBand, Urgency } from '#src/client/runtime/schedulerTypes.js';

export interface Stage {
  /** The stage's name in its Mission: `requirements`, `implementation-1`, … */
  readonly key: string;
  readonly deps: readonly string[];
  /** The Worker (by PoC name) the stage is offered to. */
  readonly worker: string;
  /** Safe checkpoints the handler passes before it submits (its length). */
  readonly steps: number;
  readonly effort: EffortBand;
  readonly urgency: Urgency;
  /** Promoted to a child Mission (§14) instead of offered. */
  readonly child?: boolean;
}

export interface MissionPlan {
  readonly name: string;
  readonly stages: readonly Stage[];
}

export type PocSize = 'reduced' | 'full';

/** Mission A: requirements → implementation (parallel parts) → testing → code review → security (child) → integration. */
export function missionAPlan(size: PocSize): MissionPlan {
  const parts = size === 'full' ? 5 : 4;
  const impl = Array.from({ length: parts }, (_, i) => `implementation-${i + 1}`);
  const steps = size === 'full' ? 6 : 4;
  return {
    name: 'A',
    stages: [
      { key: 'requirements', deps: [], worker: 'w-a', steps: 2, effort: 's', urgency: 'normal' },
      ...impl.map((key, i): Stage => ({ key, deps: ['requirements'], worker: i === 0 ? 'w-a' : 'w-shared', steps, effort: 'm', urgency: 'normal' })),
      { key: 'testing', deps: impl, worker: 'w-shared', steps: 3, effort: 's', urgency: 'normal' },
      { key: 'code-review', deps: ['testing'], worker: 'w-a', steps: 2, effort: 's', urgency: 'normal' },
      { key: 'security-review', deps: ['code-review'], worker: 'w-shared', steps: 1, effort: 's', urgency: 'normal', child: true },
      { key: 'integration', deps: ['security-review'], worker: 'w-a', steps: 2, effort: 's', urgency: 'normal' },
    ],
  };
}

/** Mission B: design → parallel features on the shared Worker and its own → tests. */
export function missionBPlan(size: PocSize): MissionPlan {
  const features = size === 'full' ? 5 : 4;
  const keys = Array.from({ length: features }, (_, i) => `feature-${i + 1}`);
  // Long enough that a feature running when the hotfix arrives is still short of its end when
  // the preemption is asked for, on a loaded machine too.
  const steps = size === 'full' ? 10 : 24;
  return {
    name: 'B',
    stages: [
      { key: 'design', deps: [], worker: 'w-b', steps: 2, effort: 's', urgency: 'normal' },
      // Routine features: a critical hotfix outranks them by the preemption margin (§11.3).
      ...keys.map((key, i): Stage => ({ key, deps: ['design'], worker: i === features - 1 ? 'w-b' : 'w-shared', steps, effort: 'm', urgency: 'routine' })),
      { key: 'release-tests', deps: keys, worker: 'w-b', steps: 2, effort: 's', urgency: 'normal' },
    ],
  };
}

/** The child security Mission's one stage, done by the shared Worker. */
export function securityPlan(): MissionPlan {
  return { name: 'S', stages: [{ key: 'security-audit', deps: [], worker: 'w-shared', steps: 3, effort: 's', urgency: 'normal' }] };
}

/** The stage a high-priority arrival adds to Mission B (critical: it outranks the running features). */
export const HOTFIX: Stage = { key: 'hotfix', deps: ['design'], worker: 'w-shared', steps: 2, effort: 'xs', urgency: 'critical' };

/** The stage a human change request adds to Mission A (after integration, before resubmission). */
export function reworkStage(round: number): Stage {
  return { key: `rework-${round}`, deps: ['integration'], worker: 'w-a', steps: 2, effort: 's', urgency: 'high' };
}

/** A stage's WorkItem ID: the same for every Coordinator of the Group, so a repeat is a duplicate, never a second WorkItem. */
export function workItemIdOf(seed: number, groupId: string, key: string): string {
  const hex = createHash('sha256').update(`${seed}|${groupId}|${key}`).digest('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The stage a WorkItem is, from its goal (`[stage] …`). */
export function stageOfGoal(goal: string): string | undefined {
  return /^\[([a-z0-9-]+)\]/.exec(goal)?.[1];
}

/** Stages in an order where every dependency comes first. */
export function topological(stages: readonly Stage[]): Stage[] {
  const done = new Set<string>();
  const out: Stage[] = [];
  while (out.length < stages.length) {
    const next = stages.find((s) => !done.has(s.key) && s.deps.every((d) => done.has(d)));
    if (next === undefined) throw new Error('the plan has a cycle or an unknown dependency');
    done.add(next.key);
    out.push(next);
  }
  return out;
}
