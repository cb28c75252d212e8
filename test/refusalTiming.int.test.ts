/**
 * The time a refusal takes does not tell which key IDs exist (issue 10): a Command signed under
 * an unknown key ID is refused in about the time a known key's bad signature is (stage 4 spends
 * stages 5 and 6 on a stand-in key, and both refusals catch the Registry up first). Medians of
 * a few hundred alternating tries, with a generous tolerance.
 */

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { IDENTITY_R, withSignature, withUnknownKey, ZERO_S } from './support/refusals.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ h, owner, mission } = await world({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    poolSize: 4,
  }));
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** A message Command whose signature is the identity R with S = 0: it passes stage 3, never stage 6. */
function refused(unknownKey: boolean): JsonObject {
  const payload = { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'probe' };
  const extra = { groupId: mission.groupId, membershipEpoch: 1 };
  const signed = unknownKey ? withUnknownKey(h, owner, 'message.post', payload, extra) : h.sign(owner, 'message.post', payload, extra);
  return withSignature(signed, IDENTITY_R, ZERO_S);
}

async function timed(command: JsonObject): Promise<number> {
  const bytes = Buffer.from(JSON.stringify(command));
  const started = performance.now();
  const outcome = await h.authority.submit(bytes);
  const ms = performance.now() - started;
  expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
  return ms;
}

describe('refusing an unknown key ID', () => {
  it('takes about as long as refusing a known key with a bad signature', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 40; i++) await timed(refused(i % 2 === 0)); // warm-up
    for (let i = 0; i < 300; i++) {
      known.push(await timed(refused(false)));
      unknown.push(await timed(refused(true)));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio, `unknown ${median(unknown).toFixed(3)} ms, known ${median(known).toFixed(3)} ms`).toBeGreaterThan(0.5);
    expect(ratio, `unknown ${median(unknown).toFixed(3)} ms, known ${median(known).toFixed(3)} ms`).toBeLessThan(2);
  });
});
