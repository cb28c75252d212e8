/**
 * The MissionOwner console's static files (dist/console, built by `npm run build` with Vite) at
 * `https://host:port/`, on the same origin as the human API it calls, so it needs no CORS and
 * WebCrypto Ed25519 runs in a secure context. Only GET and HEAD of paths outside the API are
 * served; the console routes with `#/…` fragments, so `/` is its only page.
 *
 * The headers keep the page that holds the human's signing key closed to anything not from this
 * origin: a strict Content-Security-Policy (no inline script, no other origin; `blob:` only for
 * the Artifacts the page itself verified and offers as downloads), no framing, no sniffing.
 */

import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names every asset by its content hash, so a cached copy can never be stale. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The page itself is revalidated each time, so a new build's asset names are picked up. */
const PAGE_CACHE = 'no-cache';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Paths the API owns: never answered with a console file. */
const API_PREFIXES = ['/v1/', '/health', '/ready', '/metrics'];

/**
 * Where the build put the console: beside the compiled transport layer (dist/console), or, when
 * this module runs from its source (tests), the project's dist/console.
 */
function defaultRoot(): string {
  const candidates = [fileURLToPath(new URL('../console/', import.meta.url)), fileURLToPath(new URL('../../dist/console/', import.meta.url))];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[0] as string);
}

let cachedRoot: string | undefined;

/** The file a request path names inside `root`, or undefined for anything outside it. */
export function consoleFile(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((segment) => segment === '..' || (segment.startsWith('.') && segment.length > 1))) return undefined;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, relative);
  return file.startsWith(base + sep) ? file : undefined;
}

function headers(file: string, size: number): Record<string, string | number> {
  const page = extname(file) === '.html';
  return {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': page ? PAGE_CACHE : IMMUTABLE_CACHE,
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/**
 * Serves a console file; answers false (and writes nothing) when the request is not the
 * console's, so the API's own 404 applies. A path that leaves the console folder or names no
 * file answers 404 like any missing one.
 */
export function serveConsole(request: IncomingMessage, response: ServerResponse, pathname: string, root?: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (API_PREFIXES.some((prefix) => pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix))) return false;
  const dir = root ?? (cachedRoot ??= defaultRoot());
  const file = consoleFile(dir, pathname);
  const stat = file === undefined ? undefined : statSync(file, { throwIfNoEntry: false });
  if (file === undefined || stat === undefined || !stat.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    response.end(pathname === '/' ? 'The console is not built: run `npm run build`.\n' : 'Not found.\n');
    return true;
  }
  response.writeHead(200, headers(file, stat.size));
  if (request.method === 'HEAD') {
    response.end();
    return true;
  }
  createReadStream(file).on('error', () => response.destroy()).pipe(response);
  return true;
}
