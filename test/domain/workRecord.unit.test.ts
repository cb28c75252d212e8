/**
 * The work slice's record of a WorkItem (`workRecord.ts`): its extensions of ours become typed
 * fields when a document enters the slice and extensions again when it leaves, so the bytes an
 * Event carries and a row stores are those of the document, whatever the slice keeps.
 */

import { describe, expect, it } from 'vitest';
import type { WorkItem } from '../../src/domain/documents.js';
import { WORK_SLICE } from '../../src/domain/workItem/workSlice.js';
import { leasesOf, WORK_LEASES_EXTENSION } from '../../src/domain/workItem/workLeases.js';
import { workItemDocument, workRecordOf } from '../../src/domain/workItem/workRecord.js';
import { activeWork, stateOf, WORK } from './fixtures.js';
import { workItemIn } from './workDocuments.js';

const FOREIGN = 'urn:example:extension:foreign';

describe('a WorkItem record and its document', () => {
  const document = workItemIn(stateOf(activeWork()));

  it('reads the lease extension as the typed field, which holds what the extension held', () => {
    const record = workRecordOf(document);
    const extension = document.extensions?.[WORK_LEASES_EXTENSION];
    expect(extension).toMatchObject({ version: '0.1.0', critical: false });
    expect(record.leases).toEqual(extension?.data);
    expect(leasesOf(record).execution?.state).toBe('active');
    expect(record.extensions?.[WORK_LEASES_EXTENSION]).toBeUndefined();
  });

  it('writes back the same JSON value, foreign extensions kept and no typed field on the document', () => {
    const withForeign: WorkItem = { ...document, extensions: { ...document.extensions, [FOREIGN]: { version: '1', critical: false, data: { x: 1 } } } };
    for (const original of [document, withForeign]) {
      const back = workItemDocument(workRecordOf(original));
      expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(original)));
      expect(Object.keys(back)).not.toContain('leases');
    }
  });

  it('keeps a WorkItem without extensions, or with an empty extensions object, as it was', () => {
    const { extensions: _dropped, ...bare } = document;
    expect(workItemDocument(workRecordOf(bare))).toEqual(bare);
    expect(workRecordOf(bare).leases).toBeUndefined();
    const empty: WorkItem = { ...bare, extensions: {} };
    expect(workItemDocument(workRecordOf(empty))).toEqual(empty);
  });

  it('stores a work-item row as the document and decodes it to the same record', () => {
    const state = stateOf(activeWork());
    const rows = WORK_SLICE.encode(state);
    const row = rows.find((r) => r.type === 'work-item' && r.id === WORK)!;
    expect(row.document).toEqual(workItemIn(state));
    const decoded = WORK_SLICE.decode(rows, state.groupId);
    expect(decoded.workItems.get(WORK)).toEqual(state.workItems.get(WORK));
  });
});
