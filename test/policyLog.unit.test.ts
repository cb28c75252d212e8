/**
 * What a refused document claims, as the Policy Log keeps it: strings only, each cut to the
 * limit, nothing from bytes that never parsed.
 */

import { describe, expect, it } from 'vitest';
import { claimsOf } from '../src/app/recordPolicyLog.js';

describe('claimsOf', () => {
  it('reads the claimed actor, key, Action ID, kind and Group, cut to the limit', () => {
    const document = { actor: { type: 'agent', id: 'a'.repeat(40) }, signature: { keyId: 'urn:k' }, actionId: 'urn:a', kind: 'message.post', groupId: 'urn:g' };
    expect(claimsOf(document, 16)).toEqual({
      claimedActorType: 'agent',
      claimedActorId: `${'a'.repeat(16)}…`,
      claimedKeyId: 'urn:k',
      claimedActionId: 'urn:a',
      claimedKind: 'message.post',
      claimedGroupId: 'urn:g',
    });
  });

  it('ignores members that are not strings, and unparsed bytes', () => {
    const odd = { actor: ['agent'], signature: { keyId: 7 }, actionId: null, kind: { x: 1 }, groupId: true };
    const none = { claimedActorType: null, claimedActorId: null, claimedKeyId: null, claimedActionId: null, claimedKind: null, claimedGroupId: null };
    expect(claimsOf(odd, 8)).toEqual(none);
    expect(claimsOf(new Uint8Array([123]), 8)).toEqual(none);
    expect(claimsOf('just a string', 8)).toEqual(none);
    expect(claimsOf(undefined, 8)).toEqual(none);
  });
});
