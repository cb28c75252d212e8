/**
 * One authenticated HTTPS GET to the Group Authority's own origin (snapshots, the Registry):
 * TLS 1.3, the same trusted CA as the WebSocket, the session token as a Bearer credential, and
 * a ceiling on the body so a misbehaving server cannot exhaust the Agent's memory.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';

export interface GetResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export function httpsGet(url: URL, ca: string | Buffer | undefined, timeoutMs: number, token: string, maxBytes: number): Promise<GetResponse> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}` };
    const req = request(url, { method: 'GET', minVersion: 'TLSv1.3', timeout: timeoutMs, headers, ...(ca === undefined ? {} : { ca }) }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) req.destroy(new Error(`${url.pathname} answered more than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.pathname} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
