/** The accepted `message.post`, its Events stated whole (`kindCase.ts`). */

import { MAIN, WORKER } from '../fixtures.js';
import { text, message } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('message.post', {
  actor: WORKER,
  payload: () => ({ messageId: 'urn:x:new', conversationId: MAIN, content: 'hi' }),
  events: () => [{ kind: 'message.posted', payload: { message: message('urn:x:new', WORKER, 'message', text('hi')) } }],
});
