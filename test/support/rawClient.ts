/**
 * A deliberately low-level WebSocket client for end-to-end tests of the binding: it sends any
 * bytes, waits for frames matching a predicate, and records how the connection closed.
 */

import { randomBytes, randomUUID, sign } from 'node:crypto';
import WebSocket from 'ws';
import type { Actor } from './harness.js';

export type Frame = Record<string, unknown> & { frameType: string };

export class RawClient {
  readonly frames: Frame[] = [];
  /** The session token of the last accepted HELLO. */
  sessionToken = '';
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private cursor = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.predicate(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('error', () => undefined);
  }

  static open(url: string, ca: string, options: WebSocket.ClientOptions = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ca, ...options });
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
    });
  }

  send(frame: Record<string, unknown>): string {
    const frameId = (frame['frameId'] as string | undefined) ?? `urn:uuid:${randomUUID()}`;
    this.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId, ...frame }));
    return frameId;
  }

  /** The next frame (after those already consumed) matching `predicate`. */
  next(predicate: (f: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> {
    for (; this.cursor < this.frames.length; this.cursor++) {
      const frame = this.frames[this.cursor] as Frame;
      if (predicate(frame)) {
        this.cursor++;
        return Promise.resolve(frame);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-3))}`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: (f) => {
          clearTimeout(timer);
          this.cursor = this.frames.length;
          resolve(f);
        },
      });
    });
  }

  error(code?: string): Promise<Frame> {
    return this.next((f) => f.frameType === 'ERROR' && (code === undefined || (f['error'] as { code: string }).code === code));
  }

  /** The last ERROR frame received, consumed or not. */
  lastError(): Frame | undefined {
    return [...this.frames].reverse().find((f) => f.frameType === 'ERROR');
  }

  /** Runs HELLO for an Agent; returns the session epoch (0 when refused). */
  async hello(actor: Actor, tamper?: (signature: Buffer) => Buffer<ArrayBufferLike>): Promise<number> {
    const clientNonce = randomBytes(16).toString('base64url');
    const ids = { agentId: actor.principal.id, keyId: actor.key.keyId };
    this.send({ frameType: 'HELLO', phase: 'client_init', ...ids, clientNonce, supportedVersions: ['0.1'] });
    const challenge = await this.next((f) => f['phase'] === 'server_challenge' || f.frameType === 'ERROR');
    if (challenge.frameType === 'ERROR') return 0;
    let signature: Buffer<ArrayBufferLike> = sign(null, Buffer.from(String(challenge['challenge']), 'base64url'), actor.key.privateKey);
    if (tamper !== undefined) signature = tamper(signature);
    this.send({ frameType: 'HELLO', phase: 'client_response', ...ids, clientNonce, serverNonce: challenge['serverNonce'], challengeSignature: signature.toString('base64url') });
    const accept = await this.next((f) => f['phase'] === 'server_accept' || f.frameType === 'ERROR');
    if (accept.frameType === 'ERROR') return 0;
    this.sessionToken = String(accept['sessionToken']);
    return Number(accept['sessionEpoch']);
  }

  subscribe(groupId: string, afterSequence = 0, attention?: Record<string, unknown>): string {
    return this.send({ frameType: 'SUBSCRIBE', subscriptionId: `urn:uuid:${randomUUID()}`, groups: [{ groupId, afterSequence, ...(attention === undefined ? {} : { attention }) }] });
  }

  /** Event frames of one Group received so far, as Event documents. */
  events(groupId: string): Record<string, unknown>[] {
    return this.frames.filter((f) => f.frameType === 'EVENT').map((f) => f['event'] as Record<string, unknown>).filter((e) => e['groupId'] === groupId);
  }

  close(): void {
    this.ws.close();
  }
}
