/** The accepted `ext.missionweaveprotocol.core.profile_pin`, its Events stated whole (`kindCase.ts`). */

import { OWNER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

/** A registered Extension Profile major version (`profile_pin`'s case). */
const PIN = { profileUri: 'urn:missionweave:profile:example:tally:1', majorVersion: 1 };

export const CASE = defineCase('ext.missionweaveprotocol.core.profile_pin', {
  actor: OWNER,
  payload: () => PIN,
  world: () => ({ profiles: [PIN] }),
  events: (s) => [
    {
      kind: 'ext.missionweaveprotocol.core.profile_pinned',
      payload: { missionId: s.mission.missionId, pin: PIN, mission: { ...s.mission, pinnedProfiles: [PIN], revision: s.mission.revision + 1 } },
    },
  ],
});
