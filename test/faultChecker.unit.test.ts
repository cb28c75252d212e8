/**
 * The fault suite's checker must catch what it claims to: each rule is shown a clean history
 * (no violation) and a history with exactly that fault (the violation named).
 */

import { describe, expect, it } from 'vitest';
import { checkDeliveries, checkDowntimes, checkEpochs, checkLogs, checkOperations, checkReplays, unresolved } from '../tools/faults/checker.js';
import type { Answer } from '../tools/faults/agentLink.js';
import type { Completion, GroupLog, History, Operation, Segment } from '../tools/faults/history.js';

const G = 'urn:missionweave:group:g';
const event = (sequence: number, cause: string, kind = 'message.posted', payload: Record<string, unknown> = {}) => ({
  sequence,
  text: JSON.stringify({ groupId: G, sequence, kind, cause: { type: 'command', id: cause }, payload }),
});
const log = (events: { sequence: number; text: string }[], commands: [string, unknown][] = []): GroupLog => ({
  groupId: G,
  events,
  commands: new Map(commands.map(([id, c]) => [id, JSON.stringify(c)])),
});
const op = (id: number, actionId: string, extra: Partial<Operation> = {}): Operation => ({ id, actionId, actorId: 'urn:a:w', groupId: G, kind: 'message.post', invokedAt: 1_000, ...extra });
const done = (o: number, answer: Answer, at = 2_000): Completion => ({ op: o, at, answer });
const history = (operations: Operation[], completions: Completion[], segments: Segment[] = [], downtimes: History['downtimes'] = []): History => ({ operations, completions, segments, downtimes });
const ack = (e: { sequence: number; text: string }): Answer => ({ type: 'event', events: [e] });

const rules = (violations: { rule: string }[]) => violations.map((v) => v.rule);

describe('fault checker', () => {
  const e1 = event(1, 'a1');
  const e2 = event(2, 'a2');

  it('logs: 1..N and one application per Command', () => {
    expect(checkLogs([log([e1, e2])])).toEqual([]);
    expect(rules(checkLogs([log([e1, event(3, 'a3')])]))).toContain('sequence-gap');
    expect(rules(checkLogs([log([e1, e2, event(3, 'a1')])]))).toContain('applied-twice');
  });

  it('acknowledged Commands are in the log with the bytes they were answered with', () => {
    const ops = [op(0, 'a1'), op(1, 'a2')];
    expect(checkOperations(history(ops, [done(0, ack(e1)), done(1, ack(e2))]), [log([e1, e2])])).toEqual([]);
    expect(rules(checkOperations(history(ops, [done(0, ack(e1)), done(1, ack(e2))]), [log([e1])]))).toContain('acknowledged-lost');
    const altered = { sequence: 2, text: e2.text.replace('message.posted', 'message.corrected') };
    expect(rules(checkOperations(history(ops, [done(0, ack(e1)), done(1, ack(altered))]), [log([e1, e2])]))).toContain('acknowledgement-differs');
  });

  it('a Command refused for good is not applied, and never also acknowledged', () => {
    const refused: Answer = { type: 'error', code: 'AUTH_STALE_SESSION', retryable: false };
    expect(checkOperations(history([op(0, 'a9')], [done(0, refused)]), [log([e1])])).toEqual([]);
    expect(rules(checkOperations(history([op(0, 'a1')], [done(0, refused)]), [log([e1])]))).toContain('refused-but-applied');
    expect(rules(checkOperations(history([op(0, 'a1')], [done(0, refused), done(0, ack(e1))]), [log([e1])]))).toContain('contradictory-answers');
    // A lost answer or a retryable error decides nothing.
    expect(checkOperations(history([op(0, 'a1')], [done(0, { type: 'lost', reason: 'x' }), done(0, { type: 'error', code: 'INTERNAL_ERROR', retryable: true })]), [log([e1])])).toEqual([]);
  });

  it('stale-epoch probes must be refused', () => {
    const probe = op(0, 'a1', { probe: 'stale-session' });
    expect(checkOperations(history([probe], [done(0, { type: 'error', code: 'AUTH_STALE_SESSION', retryable: false })]), [log([e2])])).toEqual([]);
    expect(rules(checkOperations(history([probe], [done(0, ack(e1))]), [log([e1])]))).toContain('stale-epoch-accepted');
    // A fenced owner's late Command may be kept (workChecker judges whether it completed anything)…
    const late = op(0, 'a1', { probe: 'fenced-owner' });
    expect(checkOperations(history([late], [done(0, ack(e1))]), [log([e1])])).toEqual([]);
    // …but, like any Command, not refused for good and applied all the same.
    expect(rules(checkOperations(history([late], [done(0, { type: 'error', code: 'WORK_LEASE_EXPIRED', retryable: false })]), [log([e1])]))).toContain('refused-but-applied');
  });

  it('nothing invoked and acknowledged while the database was down', () => {
    const down = [{ from: 5_000, to: 8_000 }];
    expect(checkDowntimes(history([op(0, 'a1', { invokedAt: 4_000 })], [done(0, ack(e1), 6_000)], [], down))).toEqual([]);
    expect(checkDowntimes(history([op(0, 'a1', { invokedAt: 6_000 })], [done(0, ack(e1), 9_000)], [], down))).toEqual([]);
    expect(rules(checkDowntimes(history([op(0, 'a1', { invokedAt: 6_000 })], [done(0, ack(e1), 7_000)], [], down)))).toContain('acknowledged-while-database-down');
  });

  it('readers get the Events right after their Cursor, in order, as logged', () => {
    const segment = (afterSequence: number, received: { sequence: number; text: string }[]): Segment => ({ reader: 'r', groupId: G, afterSequence, received });
    const logs = [log([e1, e2, event(3, 'a3')])];
    expect(checkDeliveries(history([], [], [segment(0, [e1, e2]), segment(2, [event(3, 'a3')])]), logs)).toEqual([]);
    expect(rules(checkDeliveries(history([], [], [segment(1, [event(3, 'a3')])]), logs))).toContain('delivery-out-of-order');
    expect(rules(checkDeliveries(history([], [], [segment(0, [e1, { sequence: 2, text: '{}' }])]), logs))).toContain('delivery-differs');
  });

  it('replays through every node equal the log', () => {
    expect(checkReplays([{ via: 'n1', groupId: G, events: [e1, e2] }], [log([e1, e2])])).toEqual([]);
    expect(rules(checkReplays([{ via: 'n1', groupId: G, events: [e1] }], [log([e1, e2])]))).toContain('replay-differs');
  });

  it('accepted Commands carry the epochs current at their place in the log', () => {
    const member = (epoch: number) => ({ member: { type: 'agent', id: 'urn:a:w' }, membershipEpoch: epoch });
    const created = event(1, 'c0', 'mission.created', { memberships: [member(1)], mission: { coordinator: { coordinatorEpoch: 1 } } });
    const changed = event(2, 'c1', 'membership.changed', { membership: member(2) });
    const post = (sequence: number, cause: string) => event(sequence, cause, 'message.posted');
    const commands = (epoch: number): [string, unknown][] => [['p1', { kind: 'message.post', actor: { id: 'urn:a:w' }, membershipEpoch: epoch }]];
    expect(checkEpochs([log([created, changed, post(3, 'p1')], commands(2))])).toEqual([]);
    expect(rules(checkEpochs([log([created, changed, post(3, 'p1')], commands(1))]))).toContain('stale-epoch-accepted');
    const assigned = event(2, 'c2', 'mission.coordinator.assigned', { coordinatorEpoch: 2, memberships: [], mission: { coordinator: { coordinatorEpoch: 2 } } });
    const renew = (epoch: number): [string, unknown][] => [['r1', { kind: 'mission.renew_coordinator', actor: { id: 'urn:a:w' }, membershipEpoch: 1, coordinatorEpoch: epoch }]];
    const renewed = event(3, 'r1', 'mission.coordinator.renewed');
    expect(checkEpochs([log([created, assigned, renewed], renew(2))])).toEqual([]);
    expect(rules(checkEpochs([log([created, assigned, renewed], renew(1))]))).toContain('stale-epoch-accepted');
  });

  it('counts Operations whose outcome stayed unknown', () => {
    expect(unresolved(history([op(0, 'a1'), op(1, 'a2')], [done(0, { type: 'lost', reason: 'x' }), done(1, ack(e2))]))).toBe(1);
  });
});
