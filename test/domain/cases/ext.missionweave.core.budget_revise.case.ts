/** The accepted `ext.missionweave.core.budget_revise`, its Events stated whole (`kindCase.ts`). */

import { OWNER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

/** The example Mission budget with more tool calls (`budget_revise`'s case). */
const REVISED_BUDGET = { currency: 'EUR', financialLimit: 1200, modelTokenLimit: 4000000, toolCallLimit: 6000, computeSecondsLimit: 864000, wallClockSecondsLimit: 1209600 };

export const CASE = defineCase('ext.missionweave.core.budget_revise', {
  actor: OWNER,
  payload: () => ({ budget: { ...REVISED_BUDGET }, reason: 'More tool calls for the backfill.' }),
  events: (s) => [
    {
      kind: 'ext.missionweave.core.mission_budget_revised',
      payload: {
        missionId: s.mission.missionId,
        mission: { ...s.mission, budget: REVISED_BUDGET, revision: s.mission.revision + 1 },
        previousBudget: s.mission.budget,
        budget: REVISED_BUDGET,
        reason: 'More tool calls for the backfill.',
        resumedWorkItems: [],
      },
    },
  ],
});
