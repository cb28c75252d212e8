/**
 * The Command payload types are generated from `schemas/payloads/`, never written by hand: the
 * committed file must be exactly what the generator makes of the schemas today.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { generate } from '../scripts/generatePayloadTypes.mjs';

describe('generated payload types', () => {
  it('match the payload schemas (run `npm run generate:types` after changing a schema)', async () => {
    const committed = readFileSync(new URL('../src/protocol/schemas/payloadTypes.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await (generate as () => Promise<string>)());
  });

  it('name every payload schema as a Command kind', async () => {
    const text = await (generate as () => Promise<string>)();
    for (const kind of ['message.post', 'mission.approve', 'work.authorize', 'ext.missionweaveprotocol.identity.session_open']) {
      expect(text).toContain(`"${kind}": `);
    }
  });
});
