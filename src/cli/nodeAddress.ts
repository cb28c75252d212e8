/**
 * Which node a client command talks to: `--url` when given, else the node serving the home
 * (`node.json`, written by `serve`), else the address the home's configuration names. A node
 * that does not answer is one line naming the address and what to do (exit 69), not a trace.
 */

import type { Home } from '../home/home.js';
import { runningNode } from '../home/runningNode.js';
import { UnavailableError } from '../home/usageError.js';

/** `host` as it goes in a URL: a node bound to every address is reached on loopback; IPv6 in brackets. */
export function urlHost(host: string): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
}

/** The origin of the HTTPS endpoints of the node for `home` (`https://host:port`). */
export function nodeOrigin(home: Home, url?: string): URL {
  if (url !== undefined) return new URL(url.replace(/^wss:/, 'https:'));
  const running = runningNode(home);
  if (running !== undefined) return new URL(running.https);
  const { server } = home.config();
  return new URL(`https://${urlHost(server.host)}:${server.port}`);
}

/** The WebSocket endpoint of the node for `home` (`wss://host:port/v1/ws`). */
export function nodeWebSocketUrl(home: Home, url?: string): string {
  if (url !== undefined) return url;
  const running = runningNode(home);
  if (running !== undefined) return running.url;
  return `wss://${nodeOrigin(home).host}/v1/ws`;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']);

/** `error` as the one-line refusal a user reads when it says the node is not there; else `error`. */
export function unreachable(error: unknown, home: Home, address: string): unknown {
  // The SDK wraps the socket's error (CONNECTION_FAILED) and keeps it as the cause.
  const code = [(error as NodeJS.ErrnoException | undefined)?.code, (error as { cause?: NodeJS.ErrnoException } | undefined)?.cause?.code].find((c) => c !== undefined && UNREACHABLE.has(c));
  if (code === undefined) return error;
  const started = runningNode(home) === undefined ? `no node is running for ${home.directory}; start one with: missionweave serve --dir ${home.directory}, or give --url` : 'is the node still starting?';
  return new UnavailableError(`no node answers at ${address} (${code}); ${started}`);
}
