/**
 * A load process that stops making progress fails the bench with what it was waiting for,
 * instead of hanging it: a run once sat for ten minutes with a writer waiting on answers and
 * nothing said why. Two causes are told apart: a socket the server closed (its close code and
 * reason, at once) and answers that stop coming (after `STALL_MS` with no progress).
 */

import type WebSocket from 'ws';

/** No progress for this long fails the process: the slowest phase step seen takes ~10 s. */
export const STALL_MS = 60_000;

/** Exit codes a stalled or cut-off load process ends with (0 is a result, 1 a crash). */
export const EXIT_STALLED = 3;
export const EXIT_CLOSED = 4;

function fail(code: number, message: string): never {
  process.stderr.write(`[load] ${message}\n`);
  process.exit(code);
}

/**
 * Watches `progress()` (a count that grows while the work moves); when it stays the same for
 * `stallMs`, prints `waitingFor()` and exits. Returns the function that stops the watch.
 */
export function watchStall(progress: () => number, waitingFor: () => string, stallMs = STALL_MS): () => void {
  let last = progress();
  let since = Date.now();
  const timer = setInterval(() => {
    const now = progress();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= stallMs) {
      fail(EXIT_STALLED, `no progress for ${Math.round((Date.now() - since) / 1000)} s: ${waitingFor()}`);
    }
  }, Math.min(1_000, stallMs));
  timer.unref();
  return () => clearInterval(timer);
}

/** Fails the process when the server closes one of `sockets` before `stop` is called. */
export function failOnClose(sockets: readonly WebSocket[], what: (index: number) => string): () => void {
  let stopped = false;
  sockets.forEach((ws, index) => ws.once('close', (code, reason) => {
    if (!stopped) fail(EXIT_CLOSED, `${what(index)}: the server closed the socket: ${code} ${reason.toString()}`);
  }));
  return () => {
    stopped = true;
  };
}
