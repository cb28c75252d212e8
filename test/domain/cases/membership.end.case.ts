/** The accepted `membership.end`, its Events stated whole (`kindCase.ts`). */

import { principalKey } from '../../../src/protocol/principal.js';
import { OWNER, REVIEWER, T0 } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('membership.end', {
  actor: OWNER,
  payload: () => ({ principal: REVIEWER }),
  events: (s) => [
    {
      kind: 'membership.ended',
      payload: { principal: REVIEWER, membership: { ...s.memberships.get(principalKey(REVIEWER)), state: 'ended', membershipEpoch: 2, endedAt: T0 } },
    },
  ],
});
