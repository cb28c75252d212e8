/**
 * The wire types (Command, Event, error, frames, the normative objects) are generated from the
 * protocol object schemas at the top of `schemas/`, never written by hand: the committed file
 * must be exactly what the generator makes of the schemas today.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CommandEnvelope, CommandSignature } from '../src/domain/model.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { MissionWeaveCommand, Signature } from '../src/protocol/schemas/wireTypes.js';
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

  it("give the domain's Command envelope its members: a verified wire Command is one, member for member", () => {
    // Type assertions: `tsc` (the typecheck every commit runs) fails when they no longer hold.
    expectTypeOf<MissionWeaveCommand>().toExtend<CommandEnvelope>();
    expectTypeOf<Exclude<keyof CommandEnvelope, keyof MissionWeaveCommand>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<keyof MissionWeaveCommand, keyof CommandEnvelope>>().toEqualTypeOf<'protocolVersion'>();
    expectTypeOf<CommandEnvelope['expectedRevision']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CommandEnvelope['payload']>().toEqualTypeOf<JsonObject>();
    expectTypeOf<CommandEnvelope['kind']>().toEqualTypeOf<MissionWeaveCommand['kind']>();
    expectTypeOf<CommandSignature>().toEqualTypeOf<Readonly<Signature>>();
    const wire: MissionWeaveCommand = {
      protocolVersion: '0.1',
      actionId: 'urn:uuid:a',
      actor: { type: 'agent', id: 'urn:a:1' },
      kind: 'message.post',
      correlationId: 'urn:uuid:c',
      issuedAt: '2026-01-01T00:00:00Z',
      payload: {},
      signature: { algorithm: 'Ed25519', keyId: 'k', createdAt: '2026-01-01T00:00:00Z', value: 'v' },
    };
    const envelope: CommandEnvelope = wire;
    expect(envelope.signature?.keyId).toBe('k');
  });
});
