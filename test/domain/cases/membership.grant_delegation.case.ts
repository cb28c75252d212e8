/** The accepted `membership.grant_delegation`, its Events stated whole (`kindCase.ts`). */

import { COORD, GROUP, MISSION, OWNER, T0, WORK, at, history, command, DELEGATE_AGENT } from '../fixtures.js';
import { defineCase } from './kindCase.js';

/** A Delegation Grant over w1 for delegate-5, within w1's and the Mission's budgets. */
const DELEGATION_PAYLOAD = {
  grantId: 'urn:x:grant',
  granteeAgentId: DELEGATE_AGENT.id,
  targetWorkItemId: WORK,
  allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }],
  budget: { currency: 'EUR', financialLimit: 10, modelTokenLimit: 1000, toolCallLimit: 10, computeSecondsLimit: 60, wallClockSecondsLimit: 600, externalSideEffectLimit: 0 },
  maxDescendantDepth: 2,
  expiresAt: at(3600),
};

export const CASE = defineCase('membership.grant_delegation', {
  actor: COORD,
  given: (busy) => history([(s) => command(s!, OWNER, 'membership.change', { principal: DELEGATE_AGENT, roles: ['work_delegate'] })], busy),
  payload: () => DELEGATION_PAYLOAD,
  events: () => [
    {
      kind: 'membership.delegation.granted',
      payload: {
        delegationGrant: {
          ...DELEGATION_PAYLOAD,
          missionId: MISSION,
          groupId: GROUP,
          granteeMembershipEpoch: 1,
          coordinatorEpoch: 1,
          issuedBy: COORD,
          grantedAt: T0,
          usedBy: [],
          revision: 1,
        },
      },
    },
  ],
});
