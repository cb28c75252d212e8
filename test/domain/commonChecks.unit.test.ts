/**
 * The checks every Group Command passes before its kind's own rules (docs/transitions.md,
 * "Checks inside the Group decider"), for every Group kind the registry knows.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { World } from '../support/specification.js';
import {
  COMMAND_RULES,
  AUTHORITY,
  COORD,
  COORD2,
  HASH_A,
  HASH_B,
  OWNER,
  REGISTRY,
  STRANGER,
  WORK,
  WORKER,
  at,
  busyGroup,
  command,
  envelope,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';
import { CASE_FILES, CASES } from './kindCases.js';
import type { KindCase } from './cases/kindCase.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';

const GROUP_KINDS = Object.entries(COMMAND_RULES)
  .filter(([, rules]) => rules.scope === 'group')
  .map(([kind]) => kind);

const busy = busyGroup();
const submitted = history([steps.submit([HASH_A, HASH_B])], verifiedWorkHistory(busy));
const TERMINAL: Record<string, RecordedEvent[]> = {
  approved: history([steps.approve()], submitted),
  cancelled: history([steps.cancel()], busy),
  failed: history([steps.terminate()], busy),
};

function caseOf(kind: string): KindCase {
  const found = CASES[kind];
  if (found === undefined) throw new Error(`no test case for ${kind}`);
  return found;
}

/** The history a kind's case is accepted in: its own, a submitted Mission, or the busy Group. */
function eventsFor(kind: string): RecordedEvent[] {
  const c = caseOf(kind);
  return c.submitted === true ? submitted : (c.given?.(busy) ?? busy);
}

function validCommand(kind: string, events: readonly RecordedEvent[], actor?: Principal, extra: object = {}) {
  const state = stateOf(events);
  const c = caseOf(kind);
  return command(state, actor ?? c.actor, kind, c.payload(state, events), extra);
}

/** The world a kind's case needs in a Group with `events` (archival compares the stored history). */
function worldFor(kind: string, events: readonly RecordedEvent[]): Partial<World> {
  return caseOf(kind).world?.(events) ?? {};
}

describe('the registry', () => {
  it('has a test case for every Group kind', () => {
    expect([...GROUP_KINDS].sort()).toEqual(Object.keys(CASES).sort());
  });

  it('finds each case in a file named after the kind it accepts (cases/<kind>.case.ts)', () => {
    expect(CASE_FILES.length).toBe(Object.keys(CASES).length);
    for (const { named, accepted } of CASE_FILES) expect(accepted.kind, named).toBe(named);
  });

  it('accepts each case in a live Mission (so the refusals below come from the checks)', () => {
    for (const kind of GROUP_KINDS) {
      const events = eventsFor(kind);
      groupSpec.given(events).when(validCommand(kind, events), worldFor(kind, events)).then(caseOf(kind).events(stateOf(events)));
    }
  });

  it('refuses a kind it does not know (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(command(stateOf(busy), COORD, 'ext.example.not_a_kind', { workItemId: WORK })).thenFails('INVALID_COMMAND', 'kind-not-supported');
    groupSpec.given([]).when(envelope('toString', OWNER, {})).thenFails('INVALID_COMMAND', 'kind-not-supported');
  });
});

describe.each(GROUP_KINDS)('%s', (kind) => {
  it('answers a missing Group with GROUP_NOT_FOUND', () => {
    groupSpec.given([]).when(validCommand(kind, busy)).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it('answers a Principal who never was a member with GROUP_NOT_FOUND', () => {
    for (const outsider of [STRANGER, COORD2]) {
      groupSpec.given(busy).when(validCommand(kind, busy, outsider, { membershipEpoch: 1 })).thenFails('GROUP_NOT_FOUND', 'group-not-found');
    }
  });

  it('refuses an ended or provisional Membership (MEMBERSHIP_REQUIRED)', () => {
    const ended = history([(s) => command(s!, OWNER, 'membership.end', { principal: WORKER })], busy);
    groupSpec.given(ended).when(validCommand(kind, ended, WORKER)).thenFails('MEMBERSHIP_REQUIRED', 'membership-ended');
    const provisional = history(
      [(s) => command(s!, OWNER, 'membership.change', { principal: COORD2, roles: ['worker'], provisional: true, contextPackageId: 'urn:x:cp', provisionalExpiresAt: at(3600) })],
      busy,
    );
    groupSpec.given(provisional).when(validCommand(kind, provisional, COORD2)).thenFails('MEMBERSHIP_REQUIRED', 'membership-provisional');
  });

  it('refuses a Membership Epoch that is not the current one (MEMBERSHIP_STALE)', () => {
    const events = eventsFor(kind);
    // A service has no Membership (the Command schema refuses its epochs); a member sends it instead.
    const actor = caseOf(kind).actor.type === 'service' ? WORKER : undefined;
    groupSpec.given(events).when(validCommand(kind, events, actor, { membershipEpoch: 2 })).thenFails('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale);
    groupSpec.given(events).when(validCommand(kind, events, actor, { membershipEpoch: undefined })).thenFails('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale);
  });

  it('lets only the Group Authority service send it, and only where listed (AUTH_FORBIDDEN)', () => {
    const rules = COMMAND_RULES[kind]!;
    groupSpec.given(busy).when(validCommand(kind, busy, REGISTRY, { membershipEpoch: undefined })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
    if (!rules.authority.includes('organization-authority')) {
      groupSpec.given(busy).when(validCommand(kind, busy, AUTHORITY, { membershipEpoch: undefined })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
    }
  });

  for (const [terminal, events] of Object.entries(TERMINAL)) {
    it.skipIf(caseOf(kind).terminal === true)(`is refused by a ${terminal} Mission (INVALID_STATE_TRANSITION)`, () => {
      groupSpec.given(events).when(validCommand(kind, events)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
      if (COMMAND_RULES[kind]!.authority.includes('organization-authority')) {
        groupSpec.given(events).when(validCommand(kind, events, AUTHORITY, { membershipEpoch: undefined })).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
      }
    });
  }

  it('checks expectedRevision against the aggregate the kind changes (REVISION_CONFLICT)', () => {
    const events = eventsFor(kind);
    const state = stateOf(events);
    const rules = COMMAND_RULES[kind]!;
    const plain = validCommand(kind, events);
    const current = (rules.target as (s: GroupState, c: typeof plain) => number | undefined)(state, plain);
    expect(current).toBeTypeOf('number');
    groupSpec.given(events).when({ ...plain, expectedRevision: current! + 1 }).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    groupSpec
      .given(events)
      .when({ ...plain, expectedRevision: current! }, worldFor(kind, events))
      .then(caseOf(kind).events(state), (_after, _before, drafts) => {
        // expectedRevision names exactly the aggregate whose next revision the Event produces.
        expect(drafts[0]?.aggregate.revision).toBe(current! + 1);
      });
  });

  it('refuses an envelope workItemId or conversationId the payload does not act on (INVALID_COMMAND)', () => {
    groupSpec.given(busy).when(validCommand(kind, busy, undefined, { workItemId: 'urn:x:not-this-one' })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
    groupSpec.given(busy).when(validCommand(kind, busy, undefined, { conversationId: 'urn:x:not-this-one' })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
  });
});

describe('order of the checks', () => {
  it('does not tell a non-member anything about the Mission', () => {
    const cancelled = TERMINAL['cancelled']!;
    groupSpec.given(cancelled).when(validCommand('mission.cancel', cancelled, STRANGER, { membershipEpoch: 1 })).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });

  it('checks Membership before Coordinator authority, and the epoch before the lease', () => {
    const state = stateOf(busy);
    groupSpec.given(busy).when(command(state, COORD, 'mission.renew_coordinator', {}, { membershipEpoch: 5, coordinatorEpoch: 5 })).thenFails('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale);
    groupSpec.given(busy).when(command(state, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 5 }), { now: at(9999) }).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
  });
});
