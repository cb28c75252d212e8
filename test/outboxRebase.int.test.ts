/**
 * The outbox side of a §19 rebase (runtime/projectionOutbox.ts `rebase`) on real projection
 * files: a kept Command fenced by a new Session is replaced, in one write, by its re-signed form
 * under a new Action ID, at the same place in the order, with the Action ID it was first kept
 * under in `rebasedFrom`. Reopening the file at each step stands for a crash there: before the
 * rebase only the old Action ID is pending, after it only the new one, and a rebase whose write
 * fails (the file is full) leaves the old one pending and the new one absent — never both, never
 * neither.
 */

import { describe, expect, it } from 'vitest';
import { projectionFiles } from './support/projectionFiles.js';
import type { LocalProjection } from '../src/client/runtime/projection.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const G1 = 'urn:missionweave:group:g1';
const T0 = Date.parse('2026-07-15T00:00:00.000Z');

const { home, open } = projectionFiles(AGENT, T0);

/** A signed-looking kept Command: the outbox reads its header and keeps its bytes. */
function submit(actionId: string, sessionEpoch: number, padding = 0): string {
  return JSON.stringify({ actionId, groupId: G1, kind: 'work.submit', sessionEpoch, correlationId: 'urn:uuid:c-1', payload: { note: 'x'.repeat(padding) }, signature: { keyId: 'k', value: `v-${sessionEpoch}` } });
}

/** Pending (or sent, unanswered) Action IDs, in order. */
function pending(projection: LocalProjection): string[] {
  return projection.outbox.toSend().map((command) => command.actionId);
}

describe('a §19 rebase in the outbox', () => {
  it('moves the row to the new Action ID and bytes in one write; a reopening before or after it finds exactly one pending', () => {
    const path = home();
    const first = open(path);
    first.outbox.add(submit('urn:uuid:before', 1));
    const kept = first.outbox.add(submit('urn:uuid:old', 1));
    first.outbox.add(submit('urn:uuid:after', 1));
    first.outbox.markSent('urn:uuid:old');
    first.close();

    // Crashed after the refusal, before the rebase was written: the old one is pending, as it was.
    const second = open(path);
    expect(pending(second)).toEqual(['urn:uuid:before', 'urn:uuid:old', 'urn:uuid:after']);
    const rebased = second.outbox.rebase('urn:uuid:old', submit('urn:uuid:new', 2));
    expect(rebased).toMatchObject({ actionId: 'urn:uuid:new', rebasedFrom: 'urn:uuid:old', position: kept.position, state: 'pending' });
    second.close();

    // Crashed after the rebase was written, before it was sent: the new one is pending, in the old one's place.
    const third = open(path);
    expect(pending(third)).toEqual(['urn:uuid:before', 'urn:uuid:new', 'urn:uuid:after']);
    expect(third.outbox.get('urn:uuid:old')).toBeUndefined();
    expect(third.outbox.get('urn:uuid:new')?.bytes.toString('utf8')).toBe(submit('urn:uuid:new', 2));
    // A second rebase (yet another Session fenced it) keeps the first Action ID as the link.
    expect(third.outbox.rebase('urn:uuid:new', submit('urn:uuid:newer', 3))).toMatchObject({ actionId: 'urn:uuid:newer', rebasedFrom: 'urn:uuid:old', position: kept.position });
    expect(pending(third)).toEqual(['urn:uuid:before', 'urn:uuid:newer', 'urn:uuid:after']);
    third.outbox.markAcked('urn:uuid:newer', 'urn:uuid:e-1');
    expect(third.outbox.get('urn:uuid:newer')).toMatchObject({ state: 'acked', eventId: 'urn:uuid:e-1', rebasedFrom: 'urn:uuid:old' });
    expect(third.outbox.count()).toBe(3);
  });

  it('refuses a rebase that keeps the Action ID, reuses another one, changes the Group or kind, or rebases an answered Command, and changes nothing', () => {
    const projection = open(home());
    projection.outbox.add(submit('urn:uuid:old', 1));
    projection.outbox.add(submit('urn:uuid:other', 1));
    expect(() => projection.outbox.rebase('urn:uuid:old', submit('urn:uuid:old', 2))).toThrow(expect.objectContaining({ reason: 'action-id-collision' }));
    expect(() => projection.outbox.rebase('urn:uuid:old', submit('urn:uuid:other', 2))).toThrow(/needs a new Action ID/);
    const otherKind = JSON.stringify({ ...JSON.parse(submit('urn:uuid:new', 2)), kind: 'work.fail' });
    expect(() => projection.outbox.rebase('urn:uuid:old', otherKind)).toThrow(expect.objectContaining({ reason: 'action-id-collision' }));
    expect(() => projection.outbox.rebase('urn:uuid:unknown', submit('urn:uuid:new', 2))).toThrow(/not in the outbox/);
    projection.outbox.markRefused('urn:uuid:other', 'WORK_STALE_OWNERSHIP');
    expect(() => projection.outbox.rebase('urn:uuid:other', submit('urn:uuid:new', 2))).toThrow(expect.objectContaining({ reason: 'stale' }));
    expect(pending(projection)).toEqual(['urn:uuid:old']);
    expect(projection.outbox.get('urn:uuid:old')?.bytes.toString('utf8')).toBe(submit('urn:uuid:old', 1));
    expect(projection.outbox.get('urn:uuid:new')).toBeUndefined();
  });

  it('a rebase whose write fails leaves the old Action ID pending and no new one', () => {
    const path = home();
    const roomy = open(path);
    roomy.outbox.add(submit('urn:uuid:old', 1));
    roomy.close();
    // A bound below the file's size: the rebased bytes do not fit, and the write is rolled back.
    const full = open(path, { limits: { maxBytes: 1 } });
    expect(() => full.outbox.rebase('urn:uuid:old', submit('urn:uuid:new', 2, 200_000))).toThrow(expect.objectContaining({ reason: 'disk-full' }));
    full.close();
    const again = open(path);
    expect(pending(again)).toEqual(['urn:uuid:old']);
    expect(again.outbox.get('urn:uuid:new')).toBeUndefined();
    expect(again.outbox.get('urn:uuid:old')?.bytes.toString('utf8')).toBe(submit('urn:uuid:old', 1));
  });
});
