/**
 * What a human does about each §19 refusal. The code and the Authority's message are shown as
 * they came; this adds the next step, in the human's words. One table for the shell and the
 * Panels (panels/ui.ts). A code missing here (a newer Authority) still shows, with the generic advice.
 */

import type { Refusal } from './panel.js';

const WHAT_TO_DO: Readonly<Record<string, string>> = {
  UNSUPPORTED_VERSION: 'This console speaks protocol 0.1; ask the operator which version the Authority runs.',
  AUTH_REQUIRED: 'Sign in again (Key screen). If it persists, check the human ID and key ID match what `human add` printed.',
  AUTH_INVALID_SIGNATURE: 'The key in this browser is not the one registered for this human ID and key ID: import the right PKCS#8 file, or enrol this key with `human add --public-key`.',
  AUTH_STALE_SESSION: 'A newer session replaced this one; reload the page.',
  AUTH_STALE_COORDINATOR: 'The Coordinator changed; reload the Mission and try again.',
  AUTH_FORBIDDEN: 'Your role in this Group does not allow that. Ask the MissionOwner or the operator for the role you need.',
  GROUP_NOT_FOUND: 'No such Group, or you hold no Membership in it. Check the link, or ask to be added.',
  MEMBERSHIP_REQUIRED: 'You need a Membership in this Group first; ask the MissionOwner.',
  MEMBERSHIP_STALE: 'Your Membership changed since this page read it; reload the Mission and try again.',
  SCHEMA_VALIDATION_FAILED: 'A field is missing or malformed (see the message); correct the form and submit again.',
  INVALID_COMMAND: 'The request does not fit the Mission as it stands (see the message); reload and check what you submitted.',
  INVALID_STATE_TRANSITION: 'The Mission or item is not in a state that allows this any more; reload to see its current state.',
  REVISION_CONFLICT: 'Someone changed it meanwhile, or this is not the submitted revision. Reload the panel (or the Mission), check the current state and decide again.',
  ACTION_ID_COLLISION: 'This Action ID was already used for a different request; submit again (a new ID is made).',
  UNKNOWN_CRITICAL_EXTENSION: 'The request used an extension the Authority does not support; contact the operator.',
  WORK_CONTRACT_INCOMPLETE: 'The Work Contract lacks required terms; complete it.',
  WORK_OFFER_EXPIRED: 'The offer is no longer valid; ask the Coordinator for a new one.',
  WORK_ALREADY_OWNED: 'Another Agent already owns that work.',
  WORK_LEASE_EXPIRED: 'The lease ran out; reload to see who holds the work now.',
  WORK_STALE_OWNERSHIP: 'Ownership moved on; reload.',
  APPROVAL_REQUIRED: 'A required approval has not been given yet; approve it first.',
  BUDGET_EXCEEDED: 'A hard budget is exhausted; revise the budget or cancel the work.',
  RATE_LIMITED: 'Too many requests right now; wait a little and try again.',
  BACKPRESSURE: 'The Authority is busy; try again in a moment.',
  CURSOR_TOO_OLD: 'History before this point is only in a snapshot; reload the Mission.',
  PROTOCOL_VIOLATION: 'The console sent something the Authority could not read; reload the page and try again, and report it if it repeats.',
  INTERNAL_ERROR: 'The Authority failed without accepting anything; try again shortly.',
  UNREACHABLE: 'Check the network connection and that the Authority is running, then try again.',
};

const GENERIC = 'Reload the page and try again; if it repeats, give the operator this code.';

export function whatToDo(refusal: Refusal): string {
  return WHAT_TO_DO[refusal.code] ?? GENERIC;
}
