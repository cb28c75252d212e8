/**
 * `GET /metrics`: the node's operator metrics in the Prometheus text format
 * (src/app/metrics/authorityMetrics.ts), for a Prometheus on the operator's network to scrape.
 * It is not authenticated, as Prometheus scrapes are not: it names counts and kinds, never a
 * Principal, a Group or a payload. With metrics off (`MW_METRICS=off`) the path does not exist.
 * On a node of several processes one scrape shows the whole node: the process that answers asks
 * the cluster primary, which sums every process's metrics (prom-client's AggregatorRegistry).
 */

import type { ServerResponse } from 'node:http';
import type { TransportContext } from './transportContext.js';

export const METRICS_PATH = '/metrics';

/** `HEAD /metrics`: 200 and the content type, no body and no scrape (404 with metrics off). */
export function headMetrics(context: TransportContext, response: ServerResponse): void {
  const { metrics } = context.authority;
  response.writeHead(metrics.enabled ? 200 : 404, { 'content-type': metrics.enabled ? metrics.contentType : 'application/json', 'cache-control': 'no-store' });
  response.end();
}

export async function getMetrics(context: TransportContext, response: ServerResponse): Promise<void> {
  const { metrics } = context.authority;
  if (!metrics.enabled) {
    response.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end('{"error":"not found"}');
    return;
  }
  let body: string;
  try {
    body = context.cluster === undefined ? await metrics.scrape() : await context.cluster.scrapeNode();
  } catch (error) {
    context.logger.warn({ err: error }, 'the node\'s metrics could not be gathered');
    response.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end('{"error":"unavailable"}');
    return;
  }
  response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
  response.end(body);
}
