/**
 * One HTTPS POST of a JSON body to the Group Authority's Authorization Service: TLS 1.3, the
 * trusted CA, an optional Bearer session token, and a ceiling on the answer so a misbehaving
 * server cannot exhaust the caller's memory. The body may carry a capability token; it is never
 * put in the URL, where proxies and access logs keep it.
 */

import { request } from 'node:https';
import { parseStrictJson } from '../protocol/strictJson.js';
import { errorFromDocument } from './errors.js';

/** An answer of the Authorization Service is a token and its claims: far below this. */
export const MAX_CAPABILITY_ANSWER_BYTES = 1024 * 1024;

export interface CapabilityEndpoint {
  /** The Group Authority's HTTPS origin (the WebSocket's, with `https:`). */
  readonly origin: URL;
  readonly ca?: string | Buffer;
  readonly timeoutMs: number;
}

/** POSTs `body` and returns the parsed answer object; a §19 error answer throws `MissionWeaveError`. */
export function postJson(endpoint: CapabilityEndpoint, path: string, body: unknown, bearer?: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': bytes.length };
    if (bearer !== undefined) headers['authorization'] = `Bearer ${bearer}`;
    const url = new URL(path, endpoint.origin);
    const options = { method: 'POST', minVersion: 'TLSv1.3' as const, timeout: endpoint.timeoutMs, headers, ...(endpoint.ca === undefined ? {} : { ca: endpoint.ca }) };
    const req = request(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_CAPABILITY_ANSWER_BYTES) req.destroy(new Error(`${url.pathname} answered more than ${MAX_CAPABILITY_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => {
        try {
          const value = parseStrictJson(Buffer.concat(chunks), { maxBytes: MAX_CAPABILITY_ANSWER_BYTES, maxDepth: 16 });
          const document = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(document);
          else reject(errorFromDocument(document['error']));
        } catch (error) {
          reject(error as Error);
        }
      });
      response.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.pathname} within ${endpoint.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(bytes);
  });
}
