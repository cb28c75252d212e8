/** The accepted `message.retract`, its Events stated whole (`kindCase.ts`). */

import { WORKER } from '../fixtures.js';
import { M1, text, message } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('message.retract', {
  actor: WORKER,
  payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, reason: 'wrong place' }),
  events: () => [
    {
      kind: 'message.retracted',
      payload: { amendment: message('urn:x:a', WORKER, 'retraction', text('[Message retracted by its author]'), { reason: 'wrong place' }) },
    },
  ],
});
