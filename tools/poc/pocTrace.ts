/**
 * The PoC's decision trace, for comparing two runs with one seed: for each Mission, each stage's
 * decisions in their order in the Group log — who (by role, not ID) did what — with IDs and
 * timestamps left out.
 */

import type { GroupLog } from '../faults/history.js';
import { parsed, type PocEvent } from './pocChecks.js';
import { stageOfGoal } from './pocPlan.js';
import type { PocWorld } from './pocWorld.js';

const DECISIONS = new Set(['work.authorized', 'work.offer.created', 'work.offer.accepted', 'work.submitted', 'work.result.accepted', 'mission.child.created', 'mission.submitted_for_approval', 'mission.changes_requested', 'mission.approved', 'mission.coordinator.assigned']);

export function decisionTrace(logs: { readonly A: GroupLog; readonly B: GroupLog; readonly S: GroupLog | undefined }, world: PocWorld): string[] {
  const names = new Map<string, string>(Object.values(world.agents).map((a) => [a.id, a.name]));
  names.set(world.owner.principal.id, 'human');
  const role = (e: PocEvent) => names.get(e.actor.id) ?? e.actor.type;
  const trace: string[] = [];
  for (const [mission, log] of [['A', logs.A], ['B', logs.B], ['S', logs.S]] as const) {
    if (log === undefined) continue;
    const events = parsed(log).filter((e) => DECISIONS.has(e.kind));
    const perStage = new Map<string, string[]>();
    for (const e of events) {
      const stage = e.payload.workItem === undefined ? 'mission' : (stageOfGoal(e.payload.workItem.contract.goal) ?? '?');
      const list = perStage.get(stage) ?? [];
      list.push(`${e.kind} by ${role(e)}`);
      perStage.set(stage, list);
    }
    for (const [stage, list] of [...perStage].sort(([a], [b]) => a.localeCompare(b))) trace.push(`${mission}/${stage}: ${list.join(' → ')}`);
  }
  return trace;
}
