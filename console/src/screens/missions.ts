/**
 * The human's Missions (`GET /v1/me`: every Group they hold a Membership in) and, for each, the
 * Mission tree below it (the root MissionOwner inspects the complete tree). Missions are named by
 * their titles, a child by its parent's title when the list holds the parent.
 */

import { el, replace } from '../dom.js';
import { roleName, stateName } from '../names.js';
import type { JsonObject } from '../panel.js';
import { currentApi, guarded } from '../shell.js';

interface GroupEntry {
  readonly groupId: string;
  readonly missionId: string;
  readonly title: string;
  readonly missionState: string;
  readonly role: string;
  readonly membershipState: string;
  readonly parentMissionId: string | null;
}

interface TreeMission {
  readonly missionId: string;
  readonly groupId: string;
  readonly title: string;
  readonly state: string;
  readonly depth: number;
  readonly children: readonly { readonly groupId: string }[];
}

function groupLink(groupId: string, text: string): HTMLElement {
  return el('a', { href: `#/groups/${encodeURIComponent(groupId)}/timeline` }, text);
}

function renderTree(tree: JsonObject): HTMLElement {
  const missions = (tree['missions'] ?? []) as unknown as TreeMission[];
  const byGroup = new Map(missions.map((m) => [m.groupId, m]));
  const node = (mission: TreeMission, seen: Set<string>): HTMLElement => {
    seen.add(mission.groupId);
    const children = mission.children.map((c) => byGroup.get(c.groupId)).filter((c): c is TreeMission => c !== undefined && !seen.has(c.groupId));
    return el('li', {},
      groupLink(mission.groupId, mission.title), ' ', el('span', { class: `state state-${mission.state}` }, stateName(mission.state)),
      children.length === 0 ? null : el('ul', {}, ...children.map((c) => node(c, seen))));
  };
  const root = missions[0];
  return root === undefined ? el('p', {}, 'No Missions.') : el('ul', { class: 'tree' }, node(root, new Set()), tree['truncated'] === true ? el('li', {}, '… truncated') : null);
}

function row(group: GroupEntry, titles: ReadonlyMap<string, string>): HTMLElement {
  const treeSlot = el('div', { class: 'tree-slot' });
  const showTree = el('button', { type: 'button', class: 'small', 'aria-expanded': 'false' }, 'Mission tree');
  showTree.addEventListener('click', () => void guarded(async () => {
    if (showTree.getAttribute('aria-expanded') === 'true') {
      treeSlot.replaceChildren();
      showTree.setAttribute('aria-expanded', 'false');
      return;
    }
    const api = currentApi();
    if (api === undefined) return;
    replace(treeSlot, renderTree(await api.get(`/v1/groups/${encodeURIComponent(group.groupId)}/mission-tree`)));
    showTree.setAttribute('aria-expanded', 'true');
  }));
  return el('li', { class: 'mission' },
    el('div', { class: 'mission-head' },
      groupLink(group.groupId, group.title),
      el('span', { class: `state state-${group.missionState}` }, stateName(group.missionState)),
      el('span', { class: 'muted' }, `${roleName(group.role)}${group.membershipState === 'active' ? '' : ` (${stateName(group.membershipState)})`}`),
      group.parentMissionId === null ? null : el('span', { class: 'muted' }, `part of “${titles.get(group.parentMissionId) ?? 'a parent Mission'}”`),
      showTree),
    treeSlot);
}

export async function renderMissions(root: HTMLElement): Promise<void> {
  const list = el('ul', { class: 'missions', 'aria-label': 'Missions' });
  root.append(
    el('div', { class: 'heading' }, el('h1', {}, 'Missions'), el('a', { class: 'button', href: '#/missions/new' }, 'New Mission')),
    list);
  await guarded(async () => {
    const api = currentApi();
    if (api === undefined) return;
    const me = await api.get('/v1/me');
    const groups = (me['groups'] ?? []) as unknown as GroupEntry[];
    if (groups.length === 0) list.append(el('li', { class: 'muted' }, 'No Missions yet: create one.'));
    const titles = new Map(groups.map((g) => [g.missionId, g.title] as const));
    for (const group of groups) list.append(row(group, titles));
  });
}
