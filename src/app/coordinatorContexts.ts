/**
 * What a batch's Coordinator assignments wait for (§7.2, §13.3): a replacement Coordinator works
 * from its Context Package, so the decider holds its assignments (`assigns` kinds) until the
 * package of its Coordinator Epoch is stored. The package is written by the reactor outside the
 * Group's transactions (src/app/reactor/contextSweeps.ts), so it is read here, once per batch, for
 * the Groups whose loaded state names a replacement Coordinator.
 */

import type { GroupState } from '../domain/kinds/groupState.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { Queryable } from '../store/pool.js';
import { readStoredCoordinatorPackages, type CoordinatorPackageKey } from '../store/sql/contextPackages.js';
import type { VerifiedCommand } from './verifyCommand.js';

/** How a stored package is named in the batch's set: its Group and Coordinator Epoch. */
export function coordinatorPackageKey(groupId: string, coordinatorEpoch: number): string {
  return `${coordinatorEpoch} ${groupId}`;
}

/** The stored packages of the replacement Coordinators the batch's assignments name, as keys; `trees` names each Group's Mission tree. */
export async function readCoordinatorContexts(
  db: Queryable,
  kinds: KindRegistry,
  items: readonly VerifiedCommand[],
  states: ReadonlyMap<string, GroupState>,
  trees: ReadonlyMap<string, string>,
): Promise<ReadonlySet<string>> {
  const wanted = new Map<string, CoordinatorPackageKey>();
  for (const { envelope } of items) {
    const groupId = envelope.groupId as string;
    const coordinator = states.get(groupId)?.mission.coordinator;
    if (kinds.groupKind(envelope.kind)?.assigns !== true || coordinator === undefined || coordinator.coordinatorEpoch <= 1) continue;
    wanted.set(groupId, { treeId: trees.get(groupId) ?? groupId, groupId, agentId: coordinator.agentId, coordinatorEpoch: coordinator.coordinatorEpoch });
  }
  const stored = await readStoredCoordinatorPackages(db, [...wanted.values()]);
  return new Set(stored.map((k) => coordinatorPackageKey(k.groupId, k.coordinatorEpoch)));
}
