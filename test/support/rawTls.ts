/**
 * Raw sockets against a test node, for the attacks a well-behaved HTTP or WebSocket client
 * cannot make: a silent TCP or TLS connection, hand-written upgrade requests, a body that
 * trickles in. Each socket records what it received and when it closed.
 */

import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface RawSocket {
  readonly socket: Socket;
  /** Everything received so far, as text. */
  received(): string;
  /** Milliseconds from opening until the server closed it; rejects if still open after `withinMs`. */
  closedWithin(withinMs: number): Promise<number>;
}

function track(socket: Socket): RawSocket {
  const opened = Date.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => void (text += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return {
    socket,
    received: () => text,
    closedWithin: (withinMs) => Promise.race([
      closed,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`still open after ${withinMs} ms; received ${JSON.stringify(text.slice(0, 200))}`)), withinMs).unref()),
    ]),
  };
}

/** A TLS 1.3 connection to `httpsUrl`, resolved once the handshake is done. */
export function openTls(httpsUrl: string, ca: string): Promise<RawSocket> {
  const url = new URL(httpsUrl);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca });
    const tracked = track(socket);
    socket.once('secureConnect', () => resolve(tracked));
    socket.once('error', reject);
  });
}

/** A plain TCP connection to the TLS port, which never starts TLS. */
export function openTcp(httpsUrl: string): Promise<RawSocket> {
  const url = new URL(httpsUrl);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: url.hostname, port: Number(url.port) });
    const tracked = track(socket);
    socket.once('connect', () => resolve(tracked));
    socket.once('error', reject);
  });
}

/** Sends `request` on a fresh TLS connection and resolves with what came back once it closed. */
export async function exchange(httpsUrl: string, ca: string, request: string | Buffer, withinMs = 5_000): Promise<string> {
  const raw = await openTls(httpsUrl, ca);
  raw.socket.write(request);
  await raw.closedWithin(withinMs);
  return raw.received();
}

/** An upgrade request to the WebSocket path that `ws` refuses: it has no Sec-WebSocket-Key. */
export const BAD_UPGRADE = 'GET /v1/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n';
