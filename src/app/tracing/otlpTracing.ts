/**
 * The node's tracer, from the standard OpenTelemetry environment: spans are exported over OTLP
 * (HTTP, JSON) when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and
 * not made at all otherwise — nor when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The
 * exporter reads the rest of the standard variables itself (headers, timeout); the batch
 * processor's OTEL_BSP_* ones are read here. Its queue is bounded (OTEL_BSP_MAX_QUEUE_SIZE,
 * 2048 spans by default): spans beyond it are dropped, never buffered without end.
 */

import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Tracing } from './tracing.js';

export interface NodeTracing {
  readonly tracing: Tracing;
  /** Exports the spans still queued, then stops. */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces to be exported. */
export function tracesWanted(env: NodeJS.ProcessEnv): boolean {
  const set = (name: string): boolean => (env[name] ?? '') !== '';
  if (env['OTEL_SDK_DISABLED']?.toLowerCase() === 'true') return false;
  if (env['OTEL_TRACES_EXPORTER']?.toLowerCase() === 'none') return false;
  return set('OTEL_EXPORTER_OTLP_ENDPOINT') || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
}

/**
 * Where traces go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else OTEL_EXPORTER_OTLP_ENDPOINT
 * with the signal's path `v1/traces` appended (the OTLP exporter specification's rule).
 */
export function tracesUrl(env: NodeJS.ProcessEnv): string {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces !== undefined && traces !== '') return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'] as string;
  return `${base.endsWith('/') ? base : `${base}/`}v1/traces`;
}

/** The standard batch span processor variable `name` (a positive integer), else undefined. */
function bspOption(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

/** The batch processor's settings from OTEL_BSP_*; absent ones keep the SDK's defaults. */
function batchOptions(env: NodeJS.ProcessEnv): { scheduledDelayMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number; exportTimeoutMillis?: number } {
  const entries = [
    ['scheduledDelayMillis', bspOption(env, 'OTEL_BSP_SCHEDULE_DELAY')],
    ['maxQueueSize', bspOption(env, 'OTEL_BSP_MAX_QUEUE_SIZE')],
    ['maxExportBatchSize', bspOption(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE')],
    ['exportTimeoutMillis', bspOption(env, 'OTEL_BSP_EXPORT_TIMEOUT')],
  ] as const;
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

/** The node's tracing: exporting over OTLP when the environment asks for it; undefined otherwise. */
export function tracingFromEnvironment(service: { version: string; instance: string }, env: NodeJS.ProcessEnv = process.env): NodeTracing | undefined {
  if (!tracesWanted(env)) return undefined;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': env['OTEL_SERVICE_NAME'] ?? 'missionweave',
      'service.version': service.version,
      'service.instance.id': service.instance,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(env) }), ...batchOptions(env) })],
  });
  return {
    tracing: new Tracing(provider.getTracer('missionweave', service.version)),
    shutdown: () => provider.shutdown(),
  };
}
