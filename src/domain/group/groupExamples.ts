/**
 * The group kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const EXAMPLE_GROUP_SNAPSHOT = {
  snapshotId: EXAMPLE_IDS.snapshot,
  groupId: EXAMPLE_IDS.group,
  throughSequence: 3,
  eventIds: [
    'urn:missionweave:event:ledger-migration-1',
    'urn:missionweave:event:ledger-migration-2',
    'urn:missionweave:event:ledger-migration-3',
  ],
  stateHash: EXAMPLE_HASHES.state,
  policyLog: [
    {
      entryId: 'urn:missionweave:policy-log:final-approval',
      decision: 'Verified the signed final human Approval.',
      actor: { type: 'service', id: EXAMPLE_IDS.groupAuthority },
      occurredAt: '2026-09-25T09:30:01Z',
      details: { approvalId: EXAMPLE_IDS.approval },
    },
  ],
  createdBy: { type: 'service', id: EXAMPLE_IDS.groupAuthority },
  createdAt: '2026-09-26T00:00:00Z',
  signature: exampleSignature('urn:missionweave:key:group-authority', '2026-09-26T00:00:00Z'),
};


export const GROUP_EXAMPLES = {
  // Our own kind: a Group pins an Extension Profile major version (§18).
  'ext.missionweaveprotocol.core.profile_pin': {
    payload: { profileUri: 'urn:missionweave:profile:example:tally:1', majorVersion: 1 },
    required: ['profileUri', 'majorVersion'],
    invalid: [
      ['a relative profileUri', (p) => (p.profileUri = 'tally')],
      ['a negative majorVersion', (p) => (p.majorVersion = -1)],
      ['a semantic version for majorVersion', (p) => (p.majorVersion = '1.0.0')],
    ],
  },
  'ext.missionweaveprotocol.core.group_archive': {
    payload: { snapshot: EXAMPLE_GROUP_SNAPSHOT },
    required: ['snapshot'],
    invalid: [
      ['a snapshot created by a human', (p) => (p.snapshot.createdBy = { type: 'human', id: EXAMPLE_IDS.owner })],
      ['a snapshot created by "system" (reference spelling)', (p) => (p.snapshot.createdBy = { type: 'system', id: 'organization' })],
      ['a snapshot without policy log', (p) => (p.snapshot.policyLog = [])],
      ['a snapshot without Event ids', (p) => (p.snapshot.eventIds = [])],
      ['an unsigned snapshot', (p) => delete p.snapshot.signature],
    ],
  },
} satisfies Record<string, KindExamples>;
