/**
 * An OTLP/HTTP trace collector in the test's process: a real HTTP server that accepts
 * `POST /v1/traces` with an OTLP JSON body (ExportTraceServiceRequest, ids as hex as OTLP/JSON
 * writes them), answers 200 with an empty ExportTraceServiceResponse, and keeps every span with
 * its resource's attributes.
 */

import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: Record<string, unknown>;
  readonly links: readonly { traceId: string; spanId: string }[];
  readonly status: { code?: number; message?: string };
  readonly resource: Record<string, unknown>;
}

interface OtlpAttribute {
  readonly key: string;
  readonly value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

interface OtlpRequest {
  readonly resourceSpans?: readonly {
    readonly resource?: { attributes?: readonly OtlpAttribute[] };
    readonly scopeSpans?: readonly { spans?: readonly (Omit<ReceivedSpan, 'attributes' | 'resource' | 'links' | 'status'> & { attributes?: readonly OtlpAttribute[]; links?: readonly { traceId: string; spanId: string }[]; status?: ReceivedSpan['status'] })[] }[];
  }[];
}

function attributes(list: readonly OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue]));
}

export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  /** The content types of the requests received. */
  readonly contentTypes: string[] = [];
  private readonly waiters: (() => void)[] = [];

  private constructor(private readonly server: Server, readonly endpoint: string) {}

  static async start(): Promise<OtlpCollector> {
    const made: { collector?: OtlpCollector } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        made.collector?.receive(String(request.headers['content-type']), Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    made.collector = new OtlpCollector(server, `http://127.0.0.1:${address.port}`);
    return made.collector;
  }

  private receive(contentType: string, body: string): void {
    this.contentTypes.push(contentType);
    const request = JSON.parse(body) as OtlpRequest;
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = attributes(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({ ...span, parentSpanId: span.parentSpanId ?? '', attributes: attributes(span.attributes), links: span.links ?? [], status: span.status ?? {}, resource });
        }
      }
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The spans received so far that `match`, once there are at least `count` of them (within `ms`). */
  async waitFor(match: (span: ReceivedSpan) => boolean, count: number, ms = 20_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.spans.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`received ${found.length} of ${count} spans; all: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
