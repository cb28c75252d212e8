/**
 * One HTTPS request's span (issue 33, item 8): a SERVER span under the `traceparent` the request
 * brings (W3C Trace Context), named by the method, with the path, the matched route and the
 * status, ended when the response is done. With tracing off nothing is made; only the trace
 * context the request brought is handed on, for a Command's Event to carry.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, trace, type Span } from '@opentelemetry/api';
import { endSpan, SpanKind, type CommandTraceOrigin, type TraceParent, type Tracing } from '../app/tracing/tracing.js';

export function requestTrace(tracing: Tracing, request: IncomingMessage, response: ServerResponse, url: URL, brought: TraceParent | undefined): { span?: Span; origin?: CommandTraceOrigin } {
  if (!tracing.on) return brought === undefined ? {} : { origin: { brought } };
  const method = request.method ?? 'GET';
  const span = tracing.start(method, brought?.context, { 'http.request.method': method, 'url.path': url.pathname, 'url.scheme': 'https' }, { kind: SpanKind.SERVER }) as Span;
  response.once('close', () => {
    span.setAttribute('http.response.status_code', response.statusCode);
    endSpan(span, response.statusCode >= 500 ? String(response.statusCode) : undefined);
  });
  return { span, origin: { context: trace.setSpan(ROOT_CONTEXT, span), ...(brought === undefined ? {} : { brought }) } };
}
