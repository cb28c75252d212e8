/**
 * `GET /metrics`: the node's operator metrics in the Prometheus text format
 * (src/app/metrics/authorityMetrics.ts), for a Prometheus on the operator's network to scrape.
 * It is not authenticated, as Prometheus scrapes are not: it names counts and kinds, never a
 * Principal, a Group or a payload. With metrics off (`MW_METRICS=off`) the path does not exist.
 */

import type { ServerResponse } from 'node:http';
import type { TransportContext } from './transportContext.js';

export const METRICS_PATH = '/metrics';

export async function getMetrics(context: TransportContext, response: ServerResponse): Promise<void> {
  const { metrics } = context.authority;
  if (!metrics.enabled) {
    response.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end('{"error":"not found"}');
    return;
  }
  const body = await metrics.scrape();
  response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
  response.end(body);
}
