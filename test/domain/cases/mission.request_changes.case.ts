/** The accepted `mission.request_changes`, its Events stated whole (`kindCase.ts`). */

import { OWNER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.request_changes', {
  actor: OWNER,
  submitted: true,
  payload: (s) => ({ missionRevision: s.mission.revision, feedback: 'More.' }),
  events: (s) => [{ kind: 'mission.changes_requested', payload: { missionRevision: 2, feedback: 'More.', mission: { ...s.mission, state: 'active', revision: 3 } } }],
});
