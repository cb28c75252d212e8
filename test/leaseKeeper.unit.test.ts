/**
 * The SDK's Execution Lease keeper (§11.3) on a fake clock: renewal at a safe fraction of the
 * lease, a loss on each of the three refusals that mean the lease is gone, on an expiry passed
 * with no successful renewal (a pause longer than the lease included), never on a transient
 * failure while time remains, and a local deadline that a clock offset cannot push past the
 * Authority's.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaseKeeper, LeaseLostError, type LeaseTerm } from '../src/client/leaseKeeper.js';
import { AgentClientError, MissionWeaveError } from '../src/client/errors.js';
import type { ErrorCode } from '../src/protocol/errorCodes.js';

const SECONDS = 9;

function term(serverNow: number, seconds = SECONDS): LeaseTerm {
  return { occurredAt: new Date(serverNow).toISOString(), expiresAt: new Date(serverNow + seconds * 1000).toISOString() };
}

function refusal(code: ErrorCode): MissionWeaveError {
  return new MissionWeaveError({ code, message: code, retryable: false, occurredAt: new Date().toISOString() });
}

/** A keeper whose renewals answer as `answer` says, recording when each was sent. */
function keeper(answer: (attempt: number) => Promise<LeaseTerm>, serverOffsetMs = 0) {
  const sent: number[] = [];
  const lost: LeaseLostError[] = [];
  const instance = new LeaseKeeper(term(Date.now() + serverOffsetMs), Date.now(), {
    renew: () => {
      sent.push(Date.now());
      return answer(sent.length);
    },
    renewAtFraction: 1 / 3,
    onLost: (error) => void lost.push(error),
  });
  return { instance, sent, lost };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-12-01T03:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LeaseKeeper', () => {
  it('renews once a third of the lease has run, again a third into each renewed lease, and stays held', async () => {
    const start = Date.now();
    const { instance, sent } = keeper(async () => term(Date.now()));
    await vi.advanceTimersByTimeAsync(SECONDS * 1000 * 3);
    expect(sent.map((t) => t - start)).toEqual([3000, 6000, 9000, 12000, 15000, 18000, 21000, 24000, 27000]);
    expect(instance.signal.aborted).toBe(false);
    expect(instance.renewals).toBe(9);
    expect(instance.deadline).toBe(start + 27000 + SECONDS * 1000);
  });

  for (const code of ['WORK_LEASE_EXPIRED', 'WORK_STALE_OWNERSHIP', 'AUTH_STALE_SESSION'] as const) {
    it(`a renewal refused with ${code} stops renewal and aborts the signal with the refusal`, async () => {
      const { instance, sent, lost } = keeper(() => Promise.reject(refusal(code)));
      await vi.advanceTimersByTimeAsync(3000);
      expect(instance.signal.aborted).toBe(true);
      const reason = instance.signal.reason as LeaseLostError;
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect(reason).toMatchObject({ code: 'LEASE_LOST', reason: 'refused' });
      expect((reason.cause as MissionWeaveError).code).toBe(code);
      expect(lost).toEqual([reason]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sent).toHaveLength(1);
      expect(instance.status).toBe('lost');
    });
  }

  it('a refusal that is not about the lease is retried while the lease lasts', async () => {
    const { instance, sent } = keeper(async (attempt) => {
      if (attempt < 3) throw new AgentClientError('CONNECTION_CLOSED', 'dropped');
      return term(Date.now());
    });
    await vi.advanceTimersByTimeAsync(5500);
    expect(sent.length).toBe(3);
    expect(instance.signal.aborted).toBe(false);
    expect(instance.renewals).toBe(1);
  });

  it('expiry passing with no successful renewal aborts with `expired`', async () => {
    const start = Date.now();
    const { instance, sent } = keeper(() => new Promise<LeaseTerm>(() => undefined));
    await vi.advanceTimersByTimeAsync(SECONDS * 1000 - 1);
    expect(instance.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(instance.signal.reason).toMatchObject({ code: 'LEASE_LOST', reason: 'expired' });
    expect(sent).toEqual([start + 3000]);
  });

  it('a pause longer than the lease (every timer overdue at once) is a loss, and a late answer does not revive it', async () => {
    let answer: ((t: LeaseTerm) => void) | undefined;
    const { instance } = keeper(() => new Promise<LeaseTerm>((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(SECONDS * 1000 * 2);
    expect(instance.signal.reason).toMatchObject({ reason: 'expired' });
    answer?.(term(Date.now()));
    await vi.advanceTimersByTimeAsync(SECONDS * 1000);
    expect(instance.status).toBe('lost');
    expect(instance.renewals).toBe(0);
  });

  it('the local deadline counts from when the Command was sent, whatever the offset of the Authority clock', async () => {
    const start = Date.now();
    const ahead = keeper(async () => term(Date.now() + 3_600_000), 3_600_000);
    const behind = keeper(async () => term(Date.now() - 3_600_000), -3_600_000);
    expect(ahead.instance.deadline).toBe(start + SECONDS * 1000);
    expect(behind.instance.deadline).toBe(start + SECONDS * 1000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(ahead.instance.deadline).toBe(start + 3000 + SECONDS * 1000);
  });

  it('stop() ends renewal without a loss; lose() after it changes nothing', async () => {
    const { instance, sent, lost } = keeper(async () => term(Date.now()));
    instance.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    instance.lose('fenced', 'too late');
    expect([sent.length, lost.length, instance.signal.aborted, instance.status]).toEqual([0, 0, false, 'stopped']);
  });
});
