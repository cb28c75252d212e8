/**
 * A human reader over real TLS for end-to-end tests (docs/human-api.md): JSON requests, signing
 * in with a challenge signed by the human's key, and a Server-Sent Events reader that collects
 * frames and waits for the ones a test expects.
 */

import { request, type RequestOptions } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { canonicalBytes } from '../../src/protocol/jcs.js';
import { signBytes } from '../../src/protocol/signing/signDocument.js';
import type { Actor } from './harness.js';
import type { TestServer } from './server.js';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly text: string;
  /** The parsed body (undefined when empty, or not JSON: an Artifact's content is in `text`). */
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each test reads the members it asserts
}

export function httpJson(server: Pick<TestServer, 'httpsUrl' | 'ca'>, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method, ca: server.ca, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = (res.headers['content-type'] ?? '').startsWith('application/json');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: text === '' || !json ? undefined : JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs in as `human` (challenge, signature, session); the session token. */
export async function signIn(server: Pick<TestServer, 'httpsUrl' | 'ca'>, human: Actor): Promise<{ token: string; expiresAt: string }> {
  const challenge = await httpJson(server, 'POST', '/v1/human-sessions/challenge', { body: { humanId: human.principal.id, keyId: human.key.keyId } });
  if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${challenge.text}`);
  const signature = signBytes(human.key.privateKey, canonicalBytes(challenge.body.transcript));
  const session = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: challenge.body.challengeId, signature } });
  if (session.status !== 201) throw new Error(`session: ${session.status} ${session.text}`);
  return { token: session.body.token, expiresAt: session.body.expiresAt };
}

export interface SseFrame {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

/** An open `text/event-stream` response, read frame by frame. */
export class SseReader {
  readonly frames: SseFrame[] = [];
  comments = 0;
  ended = false;
  private buffer = '';
  private waiters: (() => void)[] = [];

  private constructor(
    readonly status: number,
    readonly headers: IncomingMessage['headers'],
    private readonly req: ClientRequest,
    response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.take(chunk));
    response.on('end', () => this.finish());
    response.on('close', () => this.finish());
  }

  /** Opens the stream; a refusal comes back as a reader with its status and no frames. */
  static open(server: Pick<TestServer, 'httpsUrl' | 'ca'>, path: string, token: string | undefined, headers: Record<string, string> = {}): Promise<SseReader & { body?: string }> {
    const all: Record<string, string> = { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
    const options: RequestOptions = { method: 'GET', ca: server.ca, headers: all, agent: false };
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, server.httpsUrl), options, (res) => {
        const reader = new SseReader(res.statusCode ?? 0, res.headers, req, res);
        if (res.statusCode === 200) return resolve(reader);
        const chunks: string[] = [];
        res.on('data', (c: Buffer | string) => chunks.push(String(c)));
        res.on('end', () => resolve(Object.assign(reader, { body: chunks.join('') })));
      });
      req.on('error', reject);
      req.end();
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const fields: Record<string, string[]> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const name = line.slice(0, colon);
        (fields[name] ??= []).push(line.slice(colon + 1).replace(/^ /, ''));
      }
      if (fields['data'] !== undefined) this.frames.push({ ...(fields['id'] ? { id: fields['id'][0] as string } : {}), event: fields['event']?.[0] ?? 'message', data: fields['data'].join('\n') });
    }
    this.notify();
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once `test` holds (checked on every chunk), or rejects after `timeoutMs`. */
  until(test: (reader: SseReader) => boolean, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`SSE wait timed out; frames: ${JSON.stringify(this.frames.map((f) => [f.id, f.event]))}, ended ${this.ended}`)), timeoutMs);
      const check = (): void => {
        if (test(this)) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }

  close(): void {
    this.req.destroy();
  }
}
