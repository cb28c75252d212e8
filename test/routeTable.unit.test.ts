/**
 * The HTTPS route table (`routeTable.ts`, `coreRoutes.ts`): a route serves its method and path
 * only; a known path under another method and an unknown path both answer the API's 404, as the
 * `if` chain it replaced did; a reader route without a credential answers AUTH_REQUIRED.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CORE_ROUTES } from '../src/transport/coreRoutes.js';
import { handleHttp } from '../src/transport/httpApi.js';
import { matchRoute, type Route } from '../src/transport/routeTable.js';
import type { TransportContext } from '../src/transport/transportContext.js';
import { TRACING_OFF } from '../src/app/tracing/tracing.js';

const context = {
  clock: { nowMillis: () => Date.parse('2026-01-01T00:00:00Z') },
  logger: { error: () => undefined, debug: () => undefined },
  humans: { principalOf: () => undefined },
  sessions: { session: () => undefined },
  groups: { ready: () => Promise.resolve() },
  authority: { tracing: TRACING_OFF, metrics: { enabled: true, contentType: 'text/plain; version=0.0.4; charset=utf-8' } },
} as unknown as TransportContext;

interface Answer {
  status: number;
  body: string;
}

async function answer(method: string, url: string, routes: readonly Route[] = CORE_ROUTES, headers: Record<string, string> = {}): Promise<Answer> {
  const request = { method, url, headers, socket: {}, complete: true } as unknown as IncomingMessage;
  const got: Answer = { status: 0, body: '' };
  const response = {
    headersSent: false,
    writeHead(status: number) {
      got.status = status;
      response.headersSent = true;
    },
    end(body?: string) {
      got.body = body ?? '';
    },
  };
  await handleHttp(context, routes, request, response as unknown as ServerResponse);
  return got;
}

describe('HEAD /metrics', () => {
  it('answers 200 with no body and no scrape', async () => {
    expect(matchRoute(CORE_ROUTES, 'HEAD', '/metrics')?.route.auth).toBe('public');
    expect(await answer('HEAD', '/metrics')).toEqual({ status: 200, body: '' });
  });
});

describe('matchRoute', () => {
  it('matches an exact path and a pattern, its groups as parameters still percent-encoded', () => {
    expect(matchRoute(CORE_ROUTES, 'GET', '/health')?.route.path).toBe('/health');
    expect(matchRoute(CORE_ROUTES, 'POST', '/v1/commands')?.params).toEqual([]);
    expect(matchRoute(CORE_ROUTES, 'GET', '/v1/groups/urn%3Ag/events')?.params).toEqual(['urn%3Ag', 'events']);
    expect(matchRoute(CORE_ROUTES, 'GET', '/v1/groups/g/context-packages')?.params).toEqual(['g', undefined]);
  });

  it('matches no route for a known path under another method, or for an unknown path', () => {
    expect(matchRoute(CORE_ROUTES, 'DELETE', '/health')).toBeUndefined();
    expect(matchRoute(CORE_ROUTES, 'GET', '/v1/commands')).toBeUndefined();
    expect(matchRoute(CORE_ROUTES, 'POST', '/v1/groups/g/events')).toBeUndefined();
    expect(matchRoute(CORE_ROUTES, 'GET', '/v1/groups/g/events/more')).toBeUndefined();
    expect(matchRoute(CORE_ROUTES, 'GET', '/v1/nothing')).toBeUndefined();
  });

  it('takes the first route that matches', () => {
    const first: Route = { method: 'GET', path: /^\/x\/(a)$/, auth: 'public', handle: () => undefined };
    const second: Route = { method: 'GET', path: '/x/a', auth: 'public', handle: () => undefined };
    expect(matchRoute([first, second], 'GET', '/x/a')?.route).toBe(first);
  });
});

describe('handleHttp over the table', () => {
  it('serves a route', async () => {
    expect(await answer('GET', '/health')).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(await answer('GET', '/ready')).toEqual({ status: 200, body: '{"status":"ready"}' });
  });

  it('answers 404 for a known path under another method and for an unknown path', async () => {
    const notFound = { status: 404, body: '{"error":"not found"}' };
    expect(await answer('DELETE', '/health')).toEqual(notFound);
    expect(await answer('GET', '/v1/commands')).toEqual(notFound);
    expect(await answer('POST', '/v1/registry')).toEqual(notFound);
    expect(await answer('PUT', '/v1/groups/g/events')).toEqual(notFound);
    expect(await answer('GET', '/v1/nothing')).toEqual(notFound);
  });

  it('refuses a reader route without a live session, before reading its path', async () => {
    for (const path of ['/v1/me', '/v1/groups/%zz/events', `/v1/groups/g/snapshots/sha256:${'0'.repeat(64)}`]) {
      const refused = await answer('GET', path, CORE_ROUTES, { authorization: 'Bearer nobody' });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'AUTH_REQUIRED', message: 'present a live session token (a human session or an Agent HELLO session) as a Bearer credential' } });
    }
  });

  it('serves a route added after the core ones, authenticated as it asks', async () => {
    const extra: Route = { method: 'GET', path: /^\/v1\/extra\/([^/]+)$/, auth: 'public', handle: ({ io, params }) => io.send(200, JSON.stringify({ got: params[0] })) };
    expect(await answer('GET', '/v1/extra/a', [...CORE_ROUTES, extra])).toEqual({ status: 200, body: '{"got":"a"}' });
    const guarded: Route = { method: 'GET', path: '/v1/guarded', auth: 'session', handle: ({ io }) => io.send(200, '{}') };
    const refused = await answer('GET', '/v1/guarded', [guarded]);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'AUTH_REQUIRED', message: 'present the session token of a live session' } });
  });

  it('answers INTERNAL_ERROR when a handler throws', async () => {
    const broken: Route = { method: 'GET', path: '/v1/broken', auth: 'public', handle: () => Promise.reject(new Error('boom')) };
    const failed = await answer('GET', '/v1/broken', [broken]);
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.body)).toMatchObject({ error: { code: 'INTERNAL_ERROR' } });
  });
});
