/**
 * The console's static route on a real HTTPS node (src/transport/consoleRoute.ts): `/` is the
 * built page with a strict Content-Security-Policy, hashed assets are immutable, a path that
 * climbs out of dist/console or names a dot-file is a plain 404, and API paths keep the API's
 * answers. Needs `npm run build` (Vite) first, as `npm test` does.
 */

import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../src/transport/consoleRoute.js';
import { startTestServer, type TestServer } from './support/server.js';

const INDEX = join(process.cwd(), 'dist', 'console', 'index.html');

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

let server: TestServer;

/** A raw request: the path goes out exactly as written (no URL normalization of `..`). */
function get(path: string, method = 'GET'): Promise<Answer> {
  const url = new URL(server.httpsUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, ca: server.ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.once('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  if (!existsSync(INDEX)) throw new Error('dist/console is not built: run `npm run build` first');
  server = await startTestServer();
});

describe('the console route', () => {
  it('serves the built page at / with a strict CSP and no inline script', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toBe(readFileSync(INDEX, 'utf8'));
    // Every script is an external file of this origin: the CSP forbids inline ones.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /<script[^>]*src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await get(script as string);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
    const head = await get('/', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves the tab icon the page names, and ships no § reference in the interface', async () => {
    const page = await get('/');
    const icon = /<link rel="icon" type="image\/svg\+xml" href="(\/assets\/[^"]+\.svg)"/.exec(page.body)?.[1];
    expect(icon).toBeDefined();
    const served = await get(icon as string);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toMatch(/^<svg /);
    // The bundle holds every string the console shows (comments are stripped): none cites the spec's sections.
    const script = await get(/<script[^>]*src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] as string);
    expect(script.body.length).toBeGreaterThan(10_000);
    expect(script.body).toContain('✓');
    expect(script.body).not.toContain('§');
    expect(script.body).not.toMatch(/\\x[aA]7|\\u00[aA]7/);
  });

  it('refuses paths that leave the console folder, dot-files and missing files with 404', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/..%5c..%5cpackage.json', '/.env', '/nothing-here.js', '/%00', '/%E0%A4%A']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('"name": "missionweave"');
    }
  });

  it('leaves API paths to the API', async () => {
    const unknown = await get('/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toBe('application/json');
    expect((await get('/health')).body).toBe('{"status":"ok"}');
    expect((await get('/', 'POST')).headers['content-type']).toBe('application/json');
  });
});
