/**
 * The Authority reactor's bounds, without a database: at most the round limit per sweep and
 * round, rounds never overlap, hints during a round fold into one more round, a refused fact
 * does not take a place in the next rounds, a session opened on this node is a hint for the sweeps
 * it concerns only (the timer runs them all), and `close` waits for the round in progress and
 * stops the rounds.
 */

import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import type { CommitListener } from '../src/app/groupAuthority.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import type { AuthorityCommandDraft, Sweep } from '../src/app/reactor/sweep.js';
import { generatePrivateKey } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Pool } from '../src/store/pool.js';

const NEVER = 3_600_000;
const AUTHORITY = { type: 'service' as const, id: 'urn:missionweave:service:group-authority' };

function draft(n: number): AuthorityCommandDraft {
  return { kind: 'ext.missionweave.core.work_lease_close', groupId: 'urn:x:g', actionId: `urn:x:fact-${n}`, payload: { n } };
}

/** A Group Authority that records what it is sent and answers with `answer`. */
function fakeAuthority(answer: (command: JsonObject) => Submission = () => ({ ok: true, duplicate: false, events: [] })) {
  const sent: JsonObject[] = [];
  const listeners: CommitListener[] = [];
  const authority = {
    clock: { nowMillis: () => Date.now() },
    settings: { services: { authority: AUTHORITY }, authorityKey: { keyId: 'urn:x:key', privateKey: generatePrivateKey() } },
    submit: async (command: JsonObject) => {
      sent.push(command);
      return answer(command);
    },
    onCommitted: (listener: CommitListener) => listeners.push(listener),
  };
  return { authority: authority as unknown as GroupAuthority, sent, listeners };
}

const SESSION_OPENED = 'ext.missionweaveprotocol.identity.session_opened';
const CARD_REGISTERED = 'ext.missionweaveprotocol.registry.agent_card_registered';

/** A sweep that finds `facts` each time (none in the reactor's first round) and notes how its calls overlap. */
function sweepOf(facts: number, gate?: Promise<void>, hintedBy: readonly string[] = [SESSION_OPENED]) {
  const seen = { calls: 0, running: 0, overlapped: false, limits: [] as number[] };
  const sweep: Sweep = {
    name: 'test',
    hintedBy,
    async find(_pool, _now, limit) {
      seen.calls++;
      seen.limits.push(limit);
      seen.overlapped ||= seen.running > 0;
      seen.running++;
      await gate;
      seen.running--;
      return seen.calls === 1 ? [] : Array.from({ length: Math.min(facts, limit) }, (_, i) => draft(i));
    },
  };
  return { sweep, seen };
}

function start(authority: GroupAuthority, sweep: Sweep | readonly Sweep[], roundLimit = 64, periodMs = NEVER): AuthorityReactor {
  return AuthorityReactor.start({ authority, pool: {} as Pool, logger: pino({ level: 'silent' }), sweeps: Array.isArray(sweep) ? sweep : [sweep as Sweep], periodMs, roundLimit });
}

/** An Organization Event of `kind` committed on this node, as the Authority's listeners see it. */
function committed(kind: string) {
  return { eventId: 'urn:x:e', groupId: undefined, sequence: undefined, text: JSON.stringify({ kind }) };
}

describe('AuthorityReactor', () => {
  it('issues at most the round limit, signed by the Group Authority with the fact as Action ID', async () => {
    const { authority, sent } = fakeAuthority();
    const reactor = start(authority, sweepOf(200).sweep, 64);
    const report = await reactor.sweepNow();
    expect(report).toEqual({ issued: 64, accepted: 64, duplicate: 0, refused: 0, failed: 0 });
    expect(sent[0]).toMatchObject({ actor: AUTHORITY, kind: 'ext.missionweave.core.work_lease_close', groupId: 'urn:x:g', actionId: 'urn:x:fact-0', signature: { keyId: 'urn:x:key' } });
    await reactor.close();
  });

  it('never overlaps rounds, and folds hints that arrive during a round into one more', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { authority } = fakeAuthority();
    const { sweep, seen } = sweepOf(1, gate);
    const reactor = start(authority, sweep);
    while (seen.calls === 0) await new Promise((resolve) => setImmediate(resolve)); // its first round waits at the gate
    for (let i = 0; i < 10; i++) reactor.hint();
    open();
    await reactor.sweepNow();
    expect(seen.overlapped).toBe(false);
    expect(seen.calls, 'the first round, one for the ten hints, and sweepNow').toBe(3);
    await reactor.close();
  });

  it('counts ACTION_ID_COLLISION as the same fact done elsewhere, and skips a refused fact in later rounds', async () => {
    const answer = (command: JsonObject): Submission => {
      const n = (command['payload'] as { n: number }).n;
      if (n === 0) return { ok: false, error: { code: 'ACTION_ID_COLLISION', message: '' } } as unknown as Submission;
      if (n === 1) return { ok: false, error: { code: 'INVALID_STATE_TRANSITION', message: '' } } as unknown as Submission;
      return { ok: true, duplicate: n === 2, events: [] };
    };
    const { authority, sent } = fakeAuthority(answer);
    const { sweep, seen } = sweepOf(4);
    const reactor = start(authority, sweep, 3);
    expect(await reactor.sweepNow()).toMatchObject({ issued: 3, duplicate: 2, refused: 1, accepted: 0 });
    sent.length = 0;
    const next = await reactor.sweepNow();
    expect(sent.map((c) => (c['payload'] as { n: number }).n), 'fact 1 is skipped; fact 3 takes its place').toEqual([0, 2, 3]);
    expect(next.issued).toBe(3);
    expect(seen.limits.at(-1), 'asks for one more row per remembered refusal').toBe(4);
    await reactor.close();
  });

  it('takes a Session opened on this node as a hint, and nothing after close', async () => {
    const { authority, listeners } = fakeAuthority();
    const { sweep, seen } = sweepOf(0);
    const reactor = start(authority, sweep);
    await reactor.sweepNow();
    const before = seen.calls;
    const opened = committed(SESSION_OPENED);
    for (const listener of listeners) listener([opened]);
    await reactor.sweepNow();
    expect(seen.calls).toBe(before + 2);
    for (const listener of listeners) listener([committed(CARD_REGISTERED)]);
    await reactor.close();
    for (const listener of listeners) listener([opened]);
    expect(await reactor.sweepNow()).toMatchObject({ issued: 0 });
    expect(seen.calls).toBe(before + 2);
  });

  it('runs on a hint only the sweeps its Event concerns, and every sweep on the timer', async () => {
    const { authority, listeners } = fakeAuthority();
    const sessions = sweepOf(0, undefined, [SESSION_OPENED]);
    const cards = sweepOf(0, undefined, [CARD_REGISTERED]);
    const timed = sweepOf(0, undefined, []);
    const reactor = start(authority, [sessions.sweep, cards.sweep, timed.sweep]);
    await reactor.sweepNow();
    const calls = () => [sessions.seen.calls, cards.seen.calls, timed.seen.calls];
    expect(calls(), 'the first round and sweepNow run every sweep').toEqual([2, 2, 2]);
    for (const listener of listeners) listener([committed(SESSION_OPENED), { ...committed('message.posted'), groupId: 'urn:x:g' }]);
    await reactor.sweepNow();
    expect(calls(), 'a Session opened: its sweep only (an Event of another kind is no hint), then sweepNow').toEqual([4, 3, 3]);
    for (const listener of listeners) listener([committed(CARD_REGISTERED)]);
    for (const listener of listeners) listener([committed(SESSION_OPENED)]);
    await reactor.sweepNow();
    expect(calls(), 'two hints before the round started fold into one round of both sweeps').toEqual([6, 5, 4]);
    await reactor.close();
    // Every 20 ms: its first round, then the timer's, up to 5 s on a loaded machine.
    const ticking = start(authority, [sessions.sweep, cards.sweep, timed.sweep], 64, 20);
    for (const until = Date.now() + 5_000; timed.seen.calls < 4 + 3 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
    await ticking.close();
    expect(timed.seen.calls - 4, 'the timer runs the sweep no Event hints').toBeGreaterThanOrEqual(3);
  });
});
