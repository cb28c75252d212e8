/**
 * The verification gate alone: shares of work in progress per connection and per address, the
 * refusal budget and its window, and the node-wide bound — with a clock and verifications the
 * test controls.
 */

import { describe, expect, it } from 'vitest';
import { VerificationGate } from '../src/app/verificationGate.js';
import { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits } from '../src/app/verificationLimits.js';
import type { FrontResult } from '../src/app/verifyCommand.js';
import { wireError } from '../src/app/wireError.js';

const REFUSED: FrontResult = { ok: false, error: wireError('AUTH_INVALID_SIGNATURE', '') };

function gate(limits: Partial<VerificationLimits>, clock = { now: 0 }): VerificationGate {
  return new VerificationGate(() => clock.now, { ...DEFAULT_VERIFICATION_LIMITS, ...limits });
}

/** A verification that runs until the test settles it, counting how many run at once. */
function controlled(counter: { running: number; most: number }) {
  const settles: ((result: FrontResult) => void)[] = [];
  const verify = () =>
    new Promise<FrontResult>((resolve) => {
      counter.running++;
      counter.most = Math.max(counter.most, counter.running);
      settles.push((result) => {
        counter.running--;
        resolve(result);
      });
    });
  return { verify, settles };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('VerificationGate', () => {
  it('runs at most a connection\'s share at once, in arrival order, while another connection goes straight through', async () => {
    const g = gate({ inFlightPerConnection: 2, inFlightPerAddress: 10 });
    const counter = { running: 0, most: 0 };
    const { verify, settles } = controlled(counter);
    const flooder = {};
    const results = Array.from({ length: 5 }, () => g.run({ connection: flooder, address: 'a' }, verify));
    await tick();
    expect(counter.running).toBe(2);
    const other = g.run({ connection: {}, address: 'a' }, verify);
    await tick();
    expect(counter.running).toBe(3);
    while (settles.length > 0) {
      settles.shift()?.(REFUSED);
      await tick();
    }
    await Promise.all([...results, other]);
    expect(counter.most).toBe(3);
  });

  it('refuses RATE_LIMITED without verifying once a connection\'s refusals reach its budget, until the window ends', async () => {
    const clock = { now: 1_000 };
    const g = gate({ refusalsPerConnection: 3, refusalWindowMs: 10_000 }, clock);
    const connection = {};
    let verified = 0;
    const refuse = () => {
      verified++;
      return Promise.resolve(REFUSED);
    };
    for (let i = 0; i < 3; i++) expect((await g.run({ connection }, refuse)).ok).toBe(false);
    clock.now += 4_000;
    const limited = await g.run({ connection }, refuse);
    expect(limited).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', retryAfterMs: 6_000 } });
    expect(verified).toBe(3);
    expect(await g.run({ connection: {} }, refuse)).toMatchObject({ error: { code: 'AUTH_INVALID_SIGNATURE' } });
    clock.now += 6_000;
    expect(await g.run({ connection }, refuse)).toMatchObject({ error: { code: 'AUTH_INVALID_SIGNATURE' } });
  });

  it('refuses the Commands still waiting once the budget runs out meanwhile, without verifying them', async () => {
    const g = gate({ inFlightPerConnection: 1, refusalsPerConnection: 2 });
    const counter = { running: 0, most: 0 };
    const { verify, settles } = controlled(counter);
    const connection = {};
    const results = Array.from({ length: 4 }, () => g.run({ connection }, verify));
    for (let i = 0; i < 2; i++) {
      await tick();
      settles.shift()?.(REFUSED);
    }
    const answers = await Promise.all(results);
    expect(answers.map((a) => (a.ok ? 'ok' : a.error.code))).toEqual(['AUTH_INVALID_SIGNATURE', 'AUTH_INVALID_SIGNATURE', 'RATE_LIMITED', 'RATE_LIMITED']);
    expect(settles).toHaveLength(0);
  });

  it('shares one address\'s budget between its connections', async () => {
    const g = gate({ refusalsPerConnection: 100, refusalsPerAddress: 4 });
    const refuse = () => Promise.resolve(REFUSED);
    for (let i = 0; i < 4; i++) await g.run({ connection: {}, address: '192.0.2.7' }, refuse);
    expect(await g.run({ connection: {}, address: '192.0.2.7' }, refuse)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(await g.run({ connection: {}, address: '192.0.2.8' }, refuse)).toMatchObject({ error: { code: 'AUTH_INVALID_SIGNATURE' } });
  });

  it('refuses at once when the node already holds maxPending verifications', async () => {
    const g = gate({ maxPending: 2 });
    const counter = { running: 0, most: 0 };
    const { verify, settles } = controlled(counter);
    const held = [g.run({ address: 'a' }, verify), g.run({ address: 'b' }, verify)];
    await tick();
    expect(await g.run({ address: 'c' }, verify)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    for (const settle of settles.splice(0)) settle(REFUSED);
    await Promise.all(held);
  });

  it('tells verify a lone wss Command of a connection and address with no refusal is in good standing, and nothing else', async () => {
    const g = gate({});
    const standing: boolean[] = [];
    const accept = (good: boolean): Promise<FrontResult> => {
      standing.push(good);
      return Promise.resolve(REFUSED);
    };
    const pass = (good: boolean): Promise<FrontResult> => {
      standing.push(good);
      return Promise.resolve({ ok: false, error: wireError('RATE_LIMITED', '') } as FrontResult);
    };
    const connection = {};
    // HTTPS (no connection) never is.
    await g.run({ address: 'h' }, pass);
    expect(standing.pop()).toBe(false);
    // A burst on one connection: every Command sees another of its own in progress.
    standing.length = 0;
    const burst = {};
    await Promise.all([g.run({ connection: burst, address: 'b' }, pass), g.run({ connection: burst, address: 'b' }, pass)]);
    expect(standing).toEqual([false, false]);
    // Alone and clean: yes; after its first refusal, no more for that connection and address.
    standing.length = 0;
    await g.run({ connection, address: 'a' }, accept);
    await g.run({ connection, address: 'a' }, accept);
    await g.run({ connection: {}, address: 'a' }, accept);
    expect(standing).toEqual([true, false, false]);
  });
});
