/**
 * Verification is bounded work on the crypto workers, whoever asks (issue 10, items 2 and the
 * weaker points): an HTTPS Command whose refusal needs the stage-3 analysis of a valid R costs
 * the main thread no more than one refused at the first byte of R, and one connection's flood
 * of bad signatures holds only its own share of the workers, so another Agent's Command is
 * answered promptly meanwhile.
 */

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VERIFICATION_LIMITS } from '../src/app/verificationLimits.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import { NONCANONICAL_R, postCommands, tampered, withSignature, withUnknownKey } from './support/refusals.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  // Budgets out of the way: these tests are about where the work runs and who waits for it.
  ({ server, owner, coordinator, worker, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
    settings: { verificationLimits: { ...DEFAULT_VERIFICATION_LIMITS, inFlightPerConnection: 4, refusalsPerConnection: 1_000_000, refusalsPerAddress: 1_000_000 } },
  }));
});

function message(actor: Actor, content: string) {
  return { kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, extra: { groupId: mission.groupId, membershipEpoch: 1 } };
}

/**
 * CPU time (ms) of this process's main thread — the server's, and the test client's — from
 * Linux's per-thread accounting, in clock ticks of 10 ms. Wall-clock measures such as event-loop
 * utilization count time the thread was preempted, which on a loaded host is most of it.
 */
function mainThreadCpuMs(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Main-thread CPU time (ms) while the bodies are POSTed and answered. */
async function mainThreadBusy(bodies: readonly string[]): Promise<number> {
  const start = mainThreadCpuMs();
  const answers = await postCommands(server.httpsUrl, server.ca, bodies);
  const busy = mainThreadCpuMs() - start;
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([401]));
  return busy;
}

describe('HTTPS Commands', () => {
  it('are verified on the crypto workers: a valid R with an unknown key costs the main thread what a malformed R does', async () => {
    const unknown = () => {
      const m = message(owner, 'unknown key');
      return JSON.stringify(withUnknownKey(server.harness, owner, m.kind, m.payload, m.extra));
    };
    const count = 300;
    const validR = Array.from({ length: count }, unknown);
    const malformedR = validR.map((text) => {
      const command = JSON.parse(text) as JsonObject;
      const s = Buffer.from(String((command['signature'] as JsonObject)['value']), 'base64url').subarray(32);
      return JSON.stringify(withSignature(command, NONCANONICAL_R, s));
    });
    await mainThreadBusy(malformedR.slice(0, 20)); // warm-up: connections, JIT
    // The least of three alternating rounds each: the thread's CPU is read in 10 ms ticks and
    // also carries this process's collector and test runner, which once made one round of ~100 ms
    // read 200 in a loaded CI run.
    const cheapRounds: number[] = [];
    const dearRounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      cheapRounds.push(await mainThreadBusy(malformedR));
      dearRounds.push(await mainThreadBusy(validR));
    }
    const cheap = Math.max(10, Math.min(...cheapRounds));
    const dear = Math.min(...dearRounds);
    // Before: every valid R was analysed in pure JavaScript on this thread (3× here, 14× in the
    // issue). Now a valid R costs its hand-off to a worker and back: 1.2–2.7× on this 2-core host
    // with 150 Commands a round (2026-12-03: 140–180 against 60–120 ms, the 60 ms rounds six
    // ticks), hence 300 a round and a bound of 2.5.
    expect(dear / cheap, `main-thread CPU: ${dearRounds.join('/')} ms with a valid R, ${cheapRounds.join('/')} ms with a malformed one`).toBeLessThan(2.5);
  });
});

describe('a connection flooding bad signatures over wss', () => {
  it('holds only its share of the workers: another Agent is answered promptly meanwhile', async () => {
    const flooder = await RawClient.open(server.url, server.ca);
    worker.sessionEpoch = await flooder.hello(worker);
    const other = await RawClient.open(server.url, server.ca);
    coordinator.sessionEpoch = await other.hello(coordinator);
    // Payloads changed after signing: R valid, so each refusal analyses R (stage 3) in full.
    const flood = Array.from({ length: 400 }, (_, i) => {
      const m = message(worker, `flood ${i}`);
      return tampered(server.harness.sign(worker, m.kind, m.payload, m.extra));
    });
    for (const command of flood) flooder.send({ frameType: 'COMMAND', command });
    const m = message(coordinator, 'while the flood runs');
    const started = Date.now();
    other.send({ frameType: 'COMMAND', command: server.harness.sign(coordinator, m.kind, m.payload, m.extra) });
    const answer = await other.next((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR');
    const answeredAt = Date.now();
    const waited = answeredAt - started;
    expect(answer.frameType).toBe('EVENT');
    for (let i = 0; i < flood.length; i++) await flooder.next((f) => f.frameType === 'ERROR');
    const floodTook = Date.now() - started;
    // Before: it queued behind the whole flood on the worker (hundreds of ms here, seconds at
    // scale), so it was answered after the flood's last refusal. Compared with the flood's own
    // duration in the same run, not with a wall-clock figure, so a loaded machine slows both
    // sides alike (alone here it is answered in about a tenth of the flood's time; under a full
    // parallel test run on two cores, in about four fifths).
    expect(waited, `answered after ${waited} ms; the flood took ${floodTook} ms`).toBeLessThan(floodTook);
    flooder.close();
    other.close();
  });
});
