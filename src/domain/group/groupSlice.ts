/**
 * The group module's slice of Group state: the Group document itself, written at creation and
 * changed once more, by archival (§7.4).
 */

import { fromJson, toJson, type Group } from '../documents.js';
import type { SliceCodec } from '../kinds/domainModule.js';

export interface GroupSlice {
  readonly group: Group;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends GroupSlice {}
}

/**
 * A Group document is written at creation (1) and changed once more, by archival, whose two
 * Events take revisions 2 (`group.snapshot.created`) and 3 (`group.archived`, docs/transitions.md).
 */
export function groupRevision(group: Group): number {
  return group.state === 'archived' ? 3 : 1;
}

export const GROUP_SLICE: SliceCodec<GroupSlice> = {
  rowTypes: ['group'],
  encode: ({ group }) => [{ type: 'group', id: group.groupId, revision: groupRevision(group), document: toJson(group) }],
  decode(rows, groupId) {
    const row = rows.at(-1);
    if (row === undefined) throw new Error(`Group ${groupId}: the group, mission and current coordinator-lease rows are required`);
    const group = fromJson<Group>(row.document);
    if (group.groupId !== groupId) throw new Error(`rows of Group ${group.groupId} loaded as ${groupId}`);
    return { group };
  },
};
