/** The accepted `message.correct`, its Events stated whole (`kindCase.ts`). */

import { WORKER } from '../fixtures.js';
import { M1, text, message } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('message.correct', {
  actor: WORKER,
  payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, replacementContent: 'v2', reason: 'typo' }),
  events: () => [{ kind: 'message.corrected', payload: { amendment: message('urn:x:a', WORKER, 'correction', text('v2'), { reason: 'typo' }) } }],
});
