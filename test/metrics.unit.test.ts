/**
 * The operator metrics without a server: the Command counters' labels stay bounded whatever is
 * sent (unregistered kinds are `other`, codes come from the catalogue), gauges and counters read
 * on scrape sum their sources and forget removed ones, and metrics off do nothing.
 */

import { describe, expect, it } from 'vitest';
import { createAuthorityMetrics, DISABLED_METRICS } from '../src/app/metrics/authorityMetrics.js';
import { claimedKind, CommandTally, OTHER_KIND } from '../src/app/metrics/commandTally.js';
import { ERROR_CODES } from '../src/protocol/errorCodes.js';
import { parseExposition } from './support/prometheus.js';

const KNOWN = new Set(['message.post', 'mission.create']);

describe('CommandTally', () => {
  it('labels a kind only when registered, and a code only from the catalogue', () => {
    const tally = new CommandTally((kind) => KNOWN.has(kind));
    tally.accept('message.post', false);
    tally.accept('message.post', true);
    tally.accept('ext.someone.else', false);
    for (let i = 0; i < 1_000; i++) tally.refuse(`flood.${i}`, i % 2 === 0 ? 'SCHEMA_VALIDATION_FAILED' : `MADE_UP_${i}`);
    tally.refuse(42, 'MEMBERSHIP_STALE');
    tally.refuse('mission.create', 'MEMBERSHIP_STALE');
    expect([...tally.accepted]).toEqual([['message.post', 1], [OTHER_KIND, 1]]);
    expect([...tally.retried]).toEqual([['message.post', 1]]);
    expect([...tally.refused.keys()]).toEqual([OTHER_KIND, 'mission.create']);
    expect(Object.fromEntries(tally.refused.get(OTHER_KIND) ?? [])).toEqual({ SCHEMA_VALIDATION_FAILED: 500, INTERNAL_ERROR: 500, MEMBERSHIP_STALE: 1 });
    for (const byCode of tally.refused.values()) for (const code of byCode.keys()) expect(Object.keys(ERROR_CODES)).toContain(code);
  });

  it('reads the claimed kind of a parsed object only', () => {
    expect(claimedKind({ kind: 'message.post' })).toBe('message.post');
    expect(claimedKind(Buffer.from('{"kind":"message.post"}'))).toBeUndefined();
    expect(claimedKind([{ kind: 'x' }])).toBeUndefined();
    expect(claimedKind(null)).toBeUndefined();
  });
});

describe('AuthorityMetrics', () => {
  it('sums the sources of one name on scrape and forgets a removed one', async () => {
    const metrics = createAuthorityMetrics((kind) => KNOWN.has(kind));
    let a = 3;
    const removeA = metrics.gauge('missionweave_test_level', 'A test level.', () => a);
    metrics.gauge('missionweave_test_level', 'A test level.', () => 4);
    metrics.counter('missionweave_test_total', 'A test total.', () => 7);
    const value = async (name: string) => parseExposition(await metrics.scrape()).find((s) => s.name === name)?.value;
    expect(await value('missionweave_test_level')).toBe(7);
    a = 10;
    expect(await value('missionweave_test_level')).toBe(14);
    removeA();
    expect(await value('missionweave_test_level')).toBe(4);
    expect(await value('missionweave_test_total')).toBe(7);
    expect(() => metrics.gauge('missionweave_test_total', 'Now a gauge?', () => 1)).toThrow(/already a counter/);
    expect(() => metrics.gauge('other_prefix', 'Not ours.', () => 1)).toThrow(/must match/);
  });

  it('counts Commands and observes batches and latency; two nodes never share a series', async () => {
    const one = createAuthorityMetrics((kind) => KNOWN.has(kind));
    const two = createAuthorityMetrics((kind) => KNOWN.has(kind));
    one.commandAccepted('message.post', false, performance.now() - 20);
    one.commandAccepted('message.post', true, performance.now());
    one.commandRefused('nonsense', 'RATE_LIMITED');
    one.batchCommitted('group', 3, 0.004);
    const samples = parseExposition(await one.scrape());
    const find = (name: string, labels: Record<string, string> = {}) => samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(find('missionweave_commands_accepted_total', { kind: 'message.post' })).toBe(1);
    expect(find('missionweave_commands_retried_total', { kind: 'message.post' })).toBe(1);
    expect(find('missionweave_commands_refused_total', { kind: OTHER_KIND, code: 'RATE_LIMITED' })).toBe(1);
    expect(find('missionweave_command_event_seconds_count')).toBe(1);
    expect(find('missionweave_command_event_seconds_bucket', { le: '0.01' })).toBe(0);
    expect(find('missionweave_command_event_seconds_bucket', { le: '0.025' })).toBe(1);
    expect(find('missionweave_commit_batch_size_bucket', { queue: 'group', le: '2' })).toBe(0);
    expect(find('missionweave_commit_batch_size_bucket', { queue: 'group', le: '4' })).toBe(1);
    expect(find('missionweave_transaction_seconds_sum', { queue: 'group' })).toBeCloseTo(0.004);
    expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
    const other = parseExposition(await two.scrape());
    expect(other.filter((s) => s.name === 'missionweave_commands_accepted_total')).toEqual([]);
    expect(other.find((s) => s.name === 'missionweave_command_event_seconds_count')?.value).toBe(0);
  });

  it('off: nothing enabled, nothing registered', async () => {
    expect(DISABLED_METRICS.enabled).toBe(false);
    DISABLED_METRICS.commandAccepted('message.post', false, 0);
    DISABLED_METRICS.gauge('missionweave_x', 'x', () => 1)();
    expect(await DISABLED_METRICS.scrape()).toBe('');
  });
});
