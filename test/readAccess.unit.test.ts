/**
 * The read rule (§8, §16, §19), one case per row: strangers are told the Group does not exist,
 * inactive Members need an active Membership, an active one reads from its visibility start, and
 * only complete visibility reads a snapshot. The three purposes refuse with the same codes.
 */

import { describe, expect, it } from 'vitest';
import { decideRead, type ReadRequest } from '../src/domain/readAccess.js';

const FULL = { state: 'active', visibilityStartSequence: 0 };
const LATE = { state: 'active', visibilityStartSequence: 40 };

const subscribe = (afterSequence: number): ReadRequest => ({ purpose: 'subscribe', afterSequence });
const ALL: readonly ReadRequest[] = [subscribe(0), { purpose: 'recheck' }, { purpose: 'snapshot' }];

describe('decideRead', () => {
  it('refuses a Principal without Membership as GROUP_NOT_FOUND, whatever it asks', () => {
    for (const request of ALL) expect(decideRead(undefined, request)).toMatchObject({ allowed: false, code: 'GROUP_NOT_FOUND' });
  });

  it('words a stranger’s refusal as a missing Group (or snapshot)', () => {
    expect(decideRead(undefined, subscribe(3))).toMatchObject({ message: 'no such Group' });
    expect(decideRead(undefined, { purpose: 'snapshot' })).toMatchObject({ message: 'no such snapshot' });
  });

  it('refuses provisional and ended Memberships as MEMBERSHIP_REQUIRED, whatever they ask', () => {
    for (const state of ['provisional', 'ended']) {
      for (const request of ALL) {
        expect(decideRead({ state, visibilityStartSequence: 0 }, request)).toMatchObject({ allowed: false, code: 'MEMBERSHIP_REQUIRED' });
      }
    }
  });

  it('lets an active full-history Membership subscribe from where it asks', () => {
    expect(decideRead(FULL, subscribe(0))).toEqual({ allowed: true, afterSequence: 0 });
    expect(decideRead(FULL, subscribe(17))).toEqual({ allowed: true, afterSequence: 17 });
    expect(decideRead({ state: 'active', visibilityStartSequence: 1 }, subscribe(0))).toEqual({ allowed: true, afterSequence: 0 });
  });

  it('starts a late joiner’s stream at its visibility start, never earlier', () => {
    expect(decideRead(LATE, subscribe(0))).toEqual({ allowed: true, afterSequence: 39 });
    expect(decideRead(LATE, subscribe(39))).toEqual({ allowed: true, afterSequence: 39 });
    expect(decideRead(LATE, subscribe(55))).toEqual({ allowed: true, afterSequence: 55 });
  });

  it('keeps delivering to any active Membership on re-check', () => {
    expect(decideRead(FULL, { purpose: 'recheck' })).toMatchObject({ allowed: true });
    expect(decideRead(LATE, { purpose: 'recheck' })).toMatchObject({ allowed: true });
  });

  it('serves snapshots only to complete visibility', () => {
    expect(decideRead(FULL, { purpose: 'snapshot' })).toMatchObject({ allowed: true });
    expect(decideRead({ state: 'active', visibilityStartSequence: 1 }, { purpose: 'snapshot' })).toMatchObject({ allowed: true });
    expect(decideRead({ state: 'active', visibilityStartSequence: 2 }, { purpose: 'snapshot' })).toMatchObject({ allowed: false, code: 'AUTH_FORBIDDEN' });
    expect(decideRead(LATE, { purpose: 'snapshot' })).toMatchObject({ allowed: false, code: 'AUTH_FORBIDDEN' });
  });
});
