/**
 * The core domain modules together: each owns its slice's row types alone, the registry is built
 * from them, and an Event type carries the delivery facts it declares.
 */

import { describe, expect, it } from 'vitest';
import { CORE_MODULES } from '../../src/domain/coreModules.js';
import { coreRegistry } from '../support/coreDecider.js';
import { decodeGroupState } from '../../src/domain/kinds/domainModule.js';
import type { MessagePostedPayload } from '../../src/domain/groupEvents.js';
import { GROUP } from './fixtures.js';

const coreKinds = coreRegistry();

describe('the core domain modules', () => {
  it('claim each aggregate row type once', () => {
    const rowTypes = CORE_MODULES.flatMap((m) => m.slice?.rowTypes ?? []);
    expect(rowTypes).toEqual([...new Set(rowTypes)]);
    expect(new Set(CORE_MODULES.map((m) => m.key)).size).toBe(CORE_MODULES.length);
  });

  it('register every kind of every module, and nothing else', () => {
    const kinds = CORE_MODULES.flatMap((m) => m.kinds.map((k) => k.kind)).sort();
    expect(coreKinds.kindNames).toEqual(kinds);
  });

  it('refuse a row no module claims: corrupt storage', () => {
    expect(() => decodeGroupState(CORE_MODULES, GROUP, 1, [{ type: 'nonsense', id: 'x', revision: 1, document: {} }])).toThrow(/unknown aggregate row type nonsense/);
  });

  it('declare who a posted Message mentions, for delivery', () => {
    const payload = { message: { mentions: [{ type: 'agent', id: 'urn:missionweave:agent:a' }] } } as unknown as MessagePostedPayload;
    expect(coreKinds.event('message.posted')?.mentions?.(payload)).toEqual(['urn:missionweave:agent:a']);
    expect(coreKinds.event('membership.changed')?.changesMembership).toBe(true);
  });
});
