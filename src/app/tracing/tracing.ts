/**
 * OpenTelemetry spans for the Command path and the HTTPS requests (issue 33, item 8). A node
 * traces only when it was given a tracer (`otlpTracing.ts`, when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set); otherwise `Tracing.on` is false and every caller skips its spans before making any, so
 * tracing off costs a boolean test per step, not a no-op span.
 *
 * One Command's trace:
 *
 *   https request (POST /v1/commands, parent: the request's `traceparent`)
 *   └─ command.receive                  the whole submission
 *      ├─ command.verify                the stateless checks (gate, worker or inline)
 *      ├─ command.plan                  its batch's locks and reads
 *      ├─ command.decide                its batch's deciders
 *      ├─ command.append                its batch's Events signed and written
 *      ├─ command.commit                its batch's transaction committed
 *      └─ command.deliver               its Events handed to the subscribed sessions
 *
 * A batch carries many Commands: each Command's trace gets the batch's phases as spans of its
 * own, with the batch's times and its size as an attribute.
 */

import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Link, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/** The extension an Event carries its Command's W3C trace context in (§21 `extensions`, noncritical). */
export const TRACE_CONTEXT_EXTENSION = 'urn:missionweave:extension:trace-context';
export const TRACE_CONTEXT_VERSION = '1.0.0';

const PROPAGATOR = new W3CTraceContextPropagator();
const HEADERS = {
  get: (carrier: Record<string, string | undefined>, key: string) => carrier[key],
  keys: (carrier: Record<string, string | undefined>) => Object.keys(carrier),
};
const SETTER = { set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value) };

/** A caller's W3C trace context, valid (`traceparent` as the W3C Trace Context specification writes it). */
export interface TraceParent {
  readonly context: Context;
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** The trace context of `traceparent` (and `tracestate`), or undefined when it is absent or invalid. */
export function traceParentOf(traceparent: unknown, tracestate?: unknown): TraceParent | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const state = typeof tracestate === 'string' ? tracestate : undefined;
  const context = PROPAGATOR.extract(ROOT_CONTEXT, { traceparent, ...(state === undefined ? {} : { tracestate: state }) }, HEADERS);
  if (trace.getSpanContext(context) === undefined) return undefined;
  const written = traceHeadersOf(context);
  return { context, traceparent: written.traceparent as string, ...(written.tracestate === undefined ? {} : { tracestate: written.tracestate }) };
}

/** The W3C headers of the span context in `context`. */
function traceHeadersOf(context: Context): { traceparent?: string; tracestate?: string } {
  const carrier: Record<string, string> = {};
  PROPAGATOR.inject(context, carrier, SETTER);
  return carrier;
}

/** The trace context a Command's own signed `extensions` bring, if they bring a valid one. */
export function commandTraceParent(document: Record<string, unknown>): TraceParent | undefined {
  const extension = (document['extensions'] as Record<string, { data?: { traceparent?: unknown; tracestate?: unknown } }> | undefined)?.[TRACE_CONTEXT_EXTENSION];
  return extension === undefined ? undefined : traceParentOf(extension.data?.traceparent, extension.data?.tracestate);
}

/** The Event extension member carrying `traceparent`. */
export function traceExtension(traceparent: string, tracestate?: string): Record<string, unknown> {
  return { [TRACE_CONTEXT_EXTENSION]: { version: TRACE_CONTEXT_VERSION, critical: false, data: { traceparent, ...(tracestate === undefined ? {} : { tracestate }) } } };
}

/** Where a submitted Command's trace comes from. */
export interface CommandTraceOrigin {
  /** The context its spans hang under (the HTTPS request's span); else `brought`'s, else none. */
  readonly context?: Context;
  /** The W3C trace context the request brought (`traceparent`), which the primary Event carries. */
  readonly brought?: TraceParent;
}

/** Times (performance.now()) at which one batch's phases ended, filled in by the batch runner. */
export interface BatchPhases {
  readonly started: number;
  planned?: number;
  decided?: number;
  appended?: number;
  committed?: number;
}

/**
 * Each trace's clock: wall-clock milliseconds as `anchor + performance.now()`, the anchor taken
 * once (Date.now() - performance.now()) where a span starts with no local parent and inherited by
 * every span under it. The SDK would anchor each span on its own Date.now(), whole milliseconds,
 * so that a child could end up to a millisecond after its parent; one anchor per trace keeps a
 * parent's times and its children's in order.
 */
const ANCHORS = new WeakMap<Span, number>();

export class Tracing {
  constructor(private readonly tracer: Tracer | undefined) {}

  /** Whether spans are made at all. */
  get on(): boolean {
    return this.tracer !== undefined;
  }

  /** A span under `parent` (a context or a span), started now or at `start`; undefined when off. */
  start(name: string, parent: Context | Span | undefined, attributes: Record<string, string | number | boolean> = {}, options: { kind?: SpanKind; start?: number; links?: Link[] } = {}): Span | undefined {
    if (this.tracer === undefined) return undefined;
    const context = parent === undefined ? ROOT_CONTEXT : 'spanContext' in parent ? trace.setSpan(ROOT_CONTEXT, parent) : parent;
    const above = trace.getSpan(context);
    const anchor = (above === undefined ? undefined : ANCHORS.get(above)) ?? Date.now() - performance.now();
    const span = this.tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes, startTime: options.start ?? anchor + performance.now(), ...(options.links === undefined ? {} : { links: options.links }) }, context);
    ANCHORS.set(span, anchor);
    return span;
  }

  /** The W3C `traceparent` of `span`, to hand on (an Event's trace-context extension). */
  static traceparentOf(span: Span): string | undefined {
    return traceHeadersOf(trace.setSpan(ROOT_CONTEXT, span)).traceparent;
  }

  /** Each Command's span gets the batch's phases as spans of its own, with the batch's times. */
  batchSpans(spans: readonly (Span | undefined)[], phases: BatchPhases): void {
    const ends: [string, number | undefined][] = [['command.plan', phases.planned], ['command.decide', phases.decided], ['command.append', phases.appended], ['command.commit', phases.committed]];
    for (const parent of spans) {
      if (parent === undefined) continue;
      // The phases take their parent's clock: they then abut exactly, and lie inside it.
      const wall = ANCHORS.get(parent) ?? Date.now() - performance.now();
      let from = phases.started;
      for (const [name, end] of ends) {
        if (end === undefined) continue;
        this.start(name, parent, { 'missionweave.batch.size': spans.length }, { start: wall + from })?.end(wall + end);
        from = end;
      }
    }
  }
}

/** Ends `span` with the outcome: an error status carrying the §19 code when refused. */
export function endSpan(span: Span | undefined, refused?: string): void {
  if (span === undefined) return;
  if (refused !== undefined) {
    span.setAttribute('missionweave.error.code', refused);
    span.setStatus({ code: SpanStatusCode.ERROR, message: refused });
  }
  const anchor = ANCHORS.get(span);
  span.end(anchor === undefined ? undefined : anchor + performance.now());
}

export const TRACING_OFF = new Tracing(undefined);
export { SpanKind };
