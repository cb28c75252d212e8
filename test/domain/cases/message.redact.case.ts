/** The accepted `message.redact`, its Events stated whole (`kindCase.ts`). */

import { OWNER } from '../fixtures.js';
import { M1, text, message } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('message.redact', {
  actor: OWNER,
  payload: () => ({ amendmentId: 'urn:x:a', messageId: M1, reason: 'policy' }),
  events: () => [
    { kind: 'message.redacted', payload: { amendment: message('urn:x:a', OWNER, 'redaction', text('[Message redacted under policy]'), { reason: 'policy' }) } },
  ],
});
