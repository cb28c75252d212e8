/**
 * WorkItem documents for the tests: a state keeps each WorkItem as a record with typed fields
 * (`src/domain/workItem/workRecord.ts`); the tests state expected Events and documents as they
 * travel, extensions and all, so they read and build WorkItems as documents.
 */

import type { WorkItem } from '../../src/domain/documents.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { withLeases, type WorkLeases } from '../../src/domain/workItem/workLeases.js';
import { workItemDocument, workRecordOf } from '../../src/domain/workItem/workRecord.js';
import { WORK } from './fixtures.js';

/** The document of `state`'s WorkItem `workItemId`, as an Event would carry it. */
export function workItemIn(state: GroupState, workItemId = WORK): WorkItem {
  const record = state.workItems.get(workItemId);
  if (record === undefined) throw new Error(`no WorkItem ${workItemId} in the state`);
  return workItemDocument(record);
}

/** `document` holding `leases` in its lease extension. */
export function documentWithLeases(document: WorkItem, leases: WorkLeases): WorkItem {
  return workItemDocument(withLeases(workRecordOf(document), leases));
}
