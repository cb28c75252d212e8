/** The accepted `membership.change`, its Events stated whole (`kindCase.ts`). */

import { expectedMembership } from '../expectedEvents.js';
import { COORD2, OWNER } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('membership.change', {
  actor: OWNER,
  payload: () => ({ principal: COORD2, roles: ['observer'] }),
  events: (s) => [{ kind: 'membership.changed', payload: { membership: expectedMembership(`${ID}1`, COORD2, 'observer', { visibilityStartSequence: s.lastSequence + 1 }) } }],
});
