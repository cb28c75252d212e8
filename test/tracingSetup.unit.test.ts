/**
 * Tracing's switch and settings from the standard OpenTelemetry environment
 * (src/app/tracing/otlpTracing.ts), the W3C trace context parsing (src/app/tracing/tracing.ts),
 * and the build-info metric's labels (src/app/metrics/buildInfo.ts). No span leaves the process
 * here: tracing.e2e.test.ts receives them in a real collector.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInfo, gitCommit } from '../src/app/metrics/buildInfo.js';
import { tracesUrl, tracesWanted, tracingFromEnvironment } from '../src/app/tracing/otlpTracing.js';
import { commandTraceParent, TRACE_CONTEXT_EXTENSION, traceParentOf, TRACING_OFF } from '../src/app/tracing/tracing.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-build-info-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SERVICE = { version: '0.1.0', instance: 'unit' };

describe('tracing from the environment', () => {
  it('is off, and makes nothing, unless an OTLP endpoint is set', async () => {
    expect(tracesWanted({})).toBe(false);
    expect(tracingFromEnvironment(SERVICE, {})).toBeUndefined();
    expect(tracingFromEnvironment(SERVICE, { OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeUndefined();
    expect(TRACING_OFF.on).toBe(false);
    expect(TRACING_OFF.start('command.receive', undefined)).toBeUndefined();
    const on = tracingFromEnvironment(SERVICE, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' });
    expect(on?.tracing.on).toBe(true);
    await on?.shutdown();
  });

  it('stays off when the SDK is disabled or the traces exporter is none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracesWanted(endpoint)).toBe(true);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracesWanted({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracesWanted({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('sends to the signal path below the base endpoint, or to the traces endpoint as given', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/prefix/' })).toBe('http://collector:4318/prefix/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:2/custom' })).toBe('http://b:2/custom');
  });
});

describe('W3C trace context', () => {
  const valid = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('accepts a valid traceparent (and its tracestate) and refuses invalid ones', () => {
    expect(traceParentOf(valid, 'congo=t61rcWkgMzE')).toMatchObject({ traceparent: valid, tracestate: 'congo=t61rcWkgMzE' });
    for (const bad of [undefined, 42, '', 'garbage', '00-00000000000000000000000000000000-b7ad6b7169203331-01', '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01']) {
      expect(traceParentOf(bad), String(bad)).toBeUndefined();
    }
  });

  it('reads a Command\'s own trace-context extension, and nothing else', () => {
    const extension = (data: unknown) => ({ extensions: { [TRACE_CONTEXT_EXTENSION]: { version: '1.0.0', critical: false, data } } });
    expect(commandTraceParent(extension({ traceparent: valid }))?.traceparent).toBe(valid);
    expect(commandTraceParent(extension({ traceparent: 'nope' }))).toBeUndefined();
    expect(commandTraceParent(extension('plain'))).toBeUndefined();
    expect(commandTraceParent({})).toBeUndefined();
    expect(commandTraceParent({ extensions: { 'urn:example:other': { version: '1.0.0', critical: false, data: { traceparent: valid } } } })).toBeUndefined();
  });
});

describe('build info', () => {
  const commit = 'a'.repeat(40);

  it('names the package version, the Node.js version, and MW_BUILD_COMMIT when given', () => {
    const root = join(scratch, 'given');
    mkdirSync(root);
    writeFileSync(join(root, 'package.json'), '{"version":"9.8.7"}');
    expect(buildInfo({ MW_BUILD_COMMIT: 'abc1234' }, root)).toEqual({ version: '9.8.7', node: process.version, commit: 'abc1234' });
    expect(buildInfo({}, root).commit).toBe('unknown');
  });

  it('reads HEAD from a clone (loose and packed refs) and from a worktree', () => {
    const clone = join(scratch, 'clone');
    mkdirSync(join(clone, '.git', 'refs', 'heads'), { recursive: true });
    writeFileSync(join(clone, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(clone, '.git', 'refs', 'heads', 'main'), `${commit}\n`);
    expect(gitCommit(clone)).toBe(commit);
    rmSync(join(clone, '.git', 'refs', 'heads', 'main'));
    writeFileSync(join(clone, '.git', 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted\n${'b'.repeat(40)} refs/heads/main\n`);
    expect(gitCommit(clone)).toBe('b'.repeat(40));

    const worktree = join(scratch, 'worktree');
    const gitdir = join(clone, '.git', 'worktrees', 'wt');
    mkdirSync(gitdir, { recursive: true });
    mkdirSync(worktree);
    writeFileSync(join(worktree, '.git'), `gitdir: ${gitdir}\n`);
    writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(gitdir, 'commondir'), '../..\n');
    expect(gitCommit(worktree)).toBe('b'.repeat(40));
    writeFileSync(join(gitdir, 'HEAD'), `${'c'.repeat(40)}\n`); // detached
    expect(gitCommit(worktree)).toBe('c'.repeat(40));
    expect(gitCommit(join(scratch, 'nowhere'))).toBeUndefined();
  });
});
