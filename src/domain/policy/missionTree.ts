/**
 * One Mission's line in the Mission tree (§14: "The root MissionOwner MUST be able to inspect the
 * complete Mission tree"): its state, Coordinator, budget and use, WorkItem counts by state, and
 * the child Missions its WorkItems were promoted to, read from the Group state alone.
 */

import type { Budget, Principal } from '../documents.js';
import type { ResourceUsage } from '../budgetMath.js';
import type { GroupState } from '../kinds/groupState.js';
import { missionUsageOf } from '../workItem/resourceUsage.js';
import { linksOf } from '../workItem/workItemDocuments.js';

export interface ChildReference {
  readonly missionId: string;
  readonly groupId: string;
  readonly parentWorkItemId: string;
}

export interface MissionSummary {
  readonly missionId: string;
  readonly groupId: string;
  readonly title: string;
  readonly state: string;
  readonly missionOwner: Principal;
  readonly coordinator: { readonly agentId: string; readonly coordinatorEpoch: number };
  readonly depth: number;
  readonly budget: Budget;
  readonly budgetUsed: ResourceUsage;
  readonly workItems: Readonly<Record<string, number>>;
  readonly children: readonly ChildReference[];
}

export function summarizeMission(state: GroupState): MissionSummary {
  const { mission } = state;
  const workItems: Record<string, number> = {};
  const children: ChildReference[] = [];
  for (const item of state.workItems.values()) {
    workItems[item.state] = (workItems[item.state] ?? 0) + 1;
    const child = linksOf(item).childMission;
    if (child !== undefined) children.push({ missionId: child.missionId, groupId: child.groupId, parentWorkItemId: item.workItemId });
  }
  return {
    missionId: mission.missionId,
    groupId: state.groupId,
    title: state.missionNotes.title,
    state: mission.state,
    missionOwner: mission.missionOwner,
    coordinator: { agentId: mission.coordinator.agentId, coordinatorEpoch: mission.coordinator.coordinatorEpoch },
    depth: mission.parent?.depth ?? 0,
    budget: mission.budget,
    budgetUsed: missionUsageOf(state),
    workItems,
    children,
  };
}
