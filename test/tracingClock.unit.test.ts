/**
 * The times of one Command's spans (src/app/tracing/tracing.ts): a parent's span and the spans
 * under it are read on one clock, so a child never starts before its parent nor ends after it,
 * and a batch's phases abut. The SDK anchors each span on its own Date.now(), whole
 * milliseconds; with that, a phase could end up to a millisecond after its Command's span
 * (tracing.e2e.test.ts failed so once in CI). Spans stay in memory here; tracing.e2e.test.ts
 * sends them to a real collector.
 */

import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { endSpan, Tracing, type BatchPhases } from '../src/app/tracing/tracing.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
afterAll(() => provider.shutdown());

/** Nanoseconds since the epoch of an SDK time. */
const nanos = (time: readonly [number, number]): bigint => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);

/** Spins for `micros` microseconds, so that phases have widths below a millisecond. */
function spin(micros: number): number {
  const until = performance.now() + micros / 1000;
  while (performance.now() < until);
  return performance.now();
}

describe('the clock of a Command\'s spans', () => {
  it('keeps every phase inside its Command\'s span and the Command inside its request, trace after trace', () => {
    const tracing = new Tracing(provider.getTracer('unit'));
    const TRACES = 300;
    for (let i = 0; i < TRACES; i++) {
      const request = tracing.start('POST /v1/commands', undefined);
      const receive = tracing.start('command.receive', request);
      spin(37 * (i % 7));
      const verify = tracing.start('command.verify', receive);
      spin(50);
      endSpan(verify);
      const phases: BatchPhases = { started: spin(20) };
      phases.planned = spin(40 + (i % 5) * 30);
      phases.decided = spin(25);
      phases.appended = spin(60);
      phases.committed = spin(10 + (i % 3) * 90);
      tracing.batchSpans([receive], phases);
      endSpan(receive);
      endSpan(request);
    }

    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(TRACES * 7);
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const parentOf = (span: ReadableSpan): ReadableSpan | undefined => byId.get(span.parentSpanContext?.spanId ?? '');
    let nested = 0;
    for (const span of spans) {
      expect(nanos(span.endTime), span.name).toBeGreaterThanOrEqual(nanos(span.startTime));
      const parent = parentOf(span);
      if (parent === undefined) continue;
      expect(nanos(span.startTime), `${span.name} starts inside ${parent.name}`).toBeGreaterThanOrEqual(nanos(parent.startTime));
      expect(nanos(span.endTime), `${span.name} ends inside ${parent.name}`).toBeLessThanOrEqual(nanos(parent.endTime));
      nested++;
    }
    expect(nested).toBe(TRACES * 6);
    // Within one trace, each batch phase starts where the one before it ended.
    const phasesOf = (receive: ReadableSpan): ReadableSpan[] => spans.filter((span) => parentOf(span) === receive && span.name !== 'command.verify').sort((a, b) => Number(nanos(a.startTime) - nanos(b.startTime)));
    for (const receive of spans.filter((span) => span.name === 'command.receive')) {
      const phases = phasesOf(receive);
      expect(phases.map((span) => span.name)).toEqual(['command.plan', 'command.decide', 'command.append', 'command.commit']);
      for (let i = 1; i < phases.length; i++) expect(nanos(phases[i]?.startTime as [number, number])).toBe(nanos(phases[i - 1]?.endTime as [number, number]));
    }
  });
});
