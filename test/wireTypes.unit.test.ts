/**
 * The wire types (Command, Event, error, frames, the normative objects) are generated from the
 * protocol object schemas at the top of `schemas/`, never written by hand: the committed file
 * must be exactly what the generator makes of the schemas today.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { generate } from '../scripts/generateWireTypes.mjs';

describe('generated wire types', () => {
  it('match the protocol object schemas (run `npm run generate:types` after changing a schema)', async () => {
    const committed = readFileSync(new URL('../src/protocol/schemas/wireTypes.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await (generate as () => Promise<string>)());
  });

  it('name the envelope, the Event, the error object, every frame and the normative objects', async () => {
    const text = await (generate as () => Promise<string>)();
    for (const name of ['MissionWeaveCommand', 'MissionWeaveEvent', 'MissionWeaveProtocolError', 'MissionWeaveWebSocketFrame', 'CommandFrame', 'EventFrame', 'ErrorFrame', 'HelloInit', 'MissionWeaveWorkItem', 'MissionWeaveAgentCard', 'Principal', 'Signature']) {
      expect(text).toMatch(new RegExp(`^export type ${name} =`, 'm'));
    }
  });
});
