/**
 * What a Membership with limited visibility restores from a snapshot (§8, `snapshotView.ts`):
 * the governing documents, its own Membership, readable Conversations and their WorkItems,
 * unamended Messages written since its visibility start, and Artifact references — nothing else.
 */

import { describe, expect, it } from 'vitest';
import { rowsVisibleTo, type ViewableRow } from '../../src/domain/group/snapshotView.js';
import { COORD, MAIN, OWNER, WORKER } from './fixtures.js';

const LATE = { principal: WORKER, membershipId: 'urn:x:membership:late', visibilityStartSequence: 10 };
const SECRET_ROOM = 'urn:x:conversation:restricted';
const OPEN_ROOM = 'urn:x:conversation:restricted-with-worker';

function row(type: string, id: string, document: object, updatedSequence = 12): ViewableRow {
  return { type, id, document, updatedSequence };
}

function message(id: string, conversationId: string, status: string, updatedSequence: number): ViewableRow {
  return row('message', id, { message: { messageId: id, conversationId }, status }, updatedSequence);
}

const ROWS: ViewableRow[] = [
  row('group', 'g', {}),
  row('mission', 'm', {}),
  row('coordinator-lease', 'l', {}),
  row('artifact', 'sha256:a', {}),
  row('membership', LATE.membershipId, { member: WORKER }),
  row('membership', 'urn:x:membership:coord', { member: COORD }),
  row('membership', 'urn:x:membership:owner', { member: OWNER }),
  row('conversation', MAIN, { access: { mode: 'group' } }),
  row('conversation', SECRET_ROOM, { access: { mode: 'restricted', members: [COORD] } }),
  row('conversation', OPEN_ROOM, { access: { mode: 'restricted', members: [WORKER] } }),
  row('work-item', 'w-main', { conversationId: MAIN }),
  row('work-item', 'w-secret', { conversationId: SECRET_ROOM }),
  message('m-before', MAIN, 'posted', 9),
  message('m-after', MAIN, 'posted', 10),
  message('m-corrected', MAIN, 'corrected', 11),
  message('m-redacted', MAIN, 'redacted', 11),
  message('m-secret', SECRET_ROOM, 'posted', 11),
  message('m-open', OPEN_ROOM, 'posted', 11),
  row('work-proposal', 'p', {}),
  row('delegation-grant', 'd', {}),
  row('extension', 'urn:x:profile', {}),
];

describe('a snapshot limited to a late joiner', () => {
  it('keeps exactly what its Membership may read', () => {
    expect(rowsVisibleTo(ROWS, LATE).map((r) => `${r.type} ${r.id}`)).toEqual([
      'group g',
      'mission m',
      'coordinator-lease l',
      'artifact sha256:a',
      `membership ${LATE.membershipId}`,
      `conversation ${MAIN}`,
      `conversation ${OPEN_ROOM}`,
      'work-item w-main',
      'message m-after',
      'message m-open',
    ]);
  });

  it('gives another Principal no Membership row under a borrowed Membership ID', () => {
    const impostor = { ...LATE, principal: COORD };
    expect(rowsVisibleTo(ROWS, impostor).filter((r) => r.type === 'membership')).toEqual([]);
  });
});
