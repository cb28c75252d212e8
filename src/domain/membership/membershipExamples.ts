/**
 * The membership kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_IDS } from '../kinds/exampleStory.js';
import { PROVISIONAL } from '../kinds/exampleVariants.js';
import type { KindExamples } from '../kinds/kindTypes.js';

export const MEMBERSHIP_EXAMPLES = {
  'membership.change': {
    payload: {
      principal: { type: 'agent', id: EXAMPLE_IDS.worker },
      roles: ['worker'],
      provisional: false,
      visibilityAfterSequence: 12,
      scopes: ['message.post', 'work.accept_offer', 'work.execute'],
    },
    required: ['principal', 'roles'],
    invalid: [
      ['no roles', (p) => (p.roles = [])],
      ['a repeated role', (p) => (p.roles = ['worker', 'worker'])],
      ['an unknown role', (p) => (p.roles = ['admin'])],
      ['a "system" Principal (reference spelling)', (p) => (p.principal = { type: 'system', id: EXAMPLE_IDS.registry })],
      ['a relative Principal id', (p) => (p.principal.id = 'sql-worker-7')],
      ['a Principal with an extra member', (p) => (p.principal.displayName = 'Worker 7')],
      ['provisional without contextPackageId', (p) => { Object.assign(p, PROVISIONAL); delete p.contextPackageId; }],
      ['provisional without provisionalExpiresAt', (p) => { Object.assign(p, PROVISIONAL); delete p.provisionalExpiresAt; }],
      ['provisional as a string', (p) => (p.provisional = 'yes')],
      ['bad provisionalExpiresAt', (p) => (p.provisionalExpiresAt = '2026-09-01T13:00:00')],
      ['relative contextPackageId', (p) => (p.contextPackageId = 'context-v1')],
      ['no scopes', (p) => (p.scopes = [])],
      ['an upper-case scope', (p) => (p.scopes = ['Work.Offer'])],
      ['a repeated scope', (p) => (p.scopes = ['message.post', 'message.post'])],
      ['negative visibilityAfterSequence', (p) => (p.visibilityAfterSequence = -1)],
    ],
    valid: [
      ['a provisional Membership with its Context Package and expiry', (p) => Object.assign(p, PROVISIONAL)],
      ['a human reviewer with several roles', (p) => Object.assign(p, { principal: { type: 'human', id: EXAMPLE_IDS.owner }, roles: ['reviewer', 'observer'] })],
      ['an Organization service member', (p) => (p.principal = { type: 'service', id: EXAMPLE_IDS.groupAuthority })],
      ['visibility from the start of history', (p) => (p.visibilityAfterSequence = 0)],
    ],
  },
  'membership.end': {
    payload: { principal: { type: 'agent', id: EXAMPLE_IDS.reviewer } },
    required: ['principal'],
    invalid: [
      ['a "system" Principal', (p) => (p.principal.type = 'system')],
      ['a Principal as a bare id', (p) => (p.principal = EXAMPLE_IDS.reviewer)],
      ['a relative Principal id', (p) => (p.principal.id = 'reviewer-3')],
    ],
  },
} satisfies Record<string, KindExamples>;
