/**
 * `missionweave mcp --http PORT`: the same MCP tools over Streamable HTTP, for clients that do
 * not spawn a process. Bound to 127.0.0.1 only — whoever reaches the port acts as the Agent, so
 * it is never exposed beyond this machine — with the Host header checked against the bound
 * address (a DNS-rebinding page in a browser names its own host, and is refused before any
 * session is made), a ceiling on the request body and on the sessions held at once, and idle
 * sessions closed (`src/client/mcp/mcpLimits.ts`). Each session has its own MCP server over the
 * one Agent.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as McpSdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MCP_HTTP_MAX_BODY_BYTES, MCP_HTTP_MAX_SESSIONS, MCP_HTTP_REQUEST_TIMEOUT_MS, MCP_HTTP_SESSION_IDLE_MS } from '../client/mcp/mcpLimits.js';

export const MCP_HTTP_HOST = '127.0.0.1';
export const MCP_HTTP_PATH = '/mcp';

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpSdkServer;
  lastUsed: number;
}

export interface McpHttp {
  readonly url: string;
  close(): Promise<void>;
}

/** A JSON-RPC error answer outside any session (the transport answers those inside). */
function fail(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The body as JSON, or undefined after answering why not. */
async function jsonBody(request: IncomingMessage, response: ServerResponse): Promise<{ value: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the bound the rest is read and dropped, not kept, so the client reads the 413 instead
  // of a reset connection; the server's request timeout ends a body that never ends.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MCP_HTTP_MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MCP_HTTP_MAX_BODY_BYTES) {
    fail(response, 413, `a request body is at most ${MCP_HTTP_MAX_BODY_BYTES} bytes`);
    return undefined;
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'parse error' }, id: null }));
    return undefined;
  }
}

export async function serveMcpHttp(port: number, newServer: () => McpSdkServer, log: (message: string) => void): Promise<McpHttp> {
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];

  async function open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size >= MCP_HTTP_MAX_SESSIONS) return fail(response, 503, `${MCP_HTTP_MAX_SESSIONS} MCP sessions are open; close one (DELETE) first`);
    const server = newServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${MCP_HTTP_HOST}`);
    if (url.pathname !== MCP_HTTP_PATH) return fail(response, 404, `MCP is served at ${MCP_HTTP_PATH}`);
    if (!allowedHosts.includes(request.headers.host ?? '')) return fail(response, 403, `Host ${String(request.headers.host)} is not this server`);
    const id = request.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    const body = request.method === 'POST' ? await jsonBody(request, response) : { value: undefined };
    if (body === undefined) return;
    if (session !== undefined) {
      session.lastUsed = Date.now();
      return session.transport.handleRequest(request, response, body.value);
    }
    if (id === undefined && request.method === 'POST' && isInitializeRequest(body.value)) return open(request, response, body.value);
    fail(response, id === undefined ? 400 : 404, id === undefined ? 'initialize first: no mcp-session-id' : 'no such MCP session (it ended or expired): initialize again');
  }

  const http: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`MCP HTTP request failed: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) fail(response, 500, 'internal error');
      else response.destroy();
    });
  });
  http.requestTimeout = MCP_HTTP_REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, MCP_HTTP_HOST, () => resolve());
  });
  const bound = (http.address() as { port: number }).port;
  allowedHosts = [`${MCP_HTTP_HOST}:${bound}`, `localhost:${bound}`];
  const sweep = setInterval(() => {
    const cutoff = Date.now() - MCP_HTTP_SESSION_IDLE_MS;
    for (const session of sessions.values()) if (session.lastUsed < cutoff) void session.transport.close();
  }, Math.min(MCP_HTTP_SESSION_IDLE_MS, 60_000));
  sweep.unref();
  return {
    url: `http://${MCP_HTTP_HOST}:${bound}${MCP_HTTP_PATH}`,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
