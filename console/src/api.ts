/**
 * The console's HTTPS client (docs/human-api.md): a human session opened by signing the server's
 * challenge transcript in the page, bearer reads, signed Commands posted to `POST /v1/commands`,
 * and the Group's live Events over Server-Sent Events read with fetch (EventSource cannot send
 * the bearer token). Every refusal rejects with the §19 error document the Authority sent.
 */

import { canonicalize } from './jcs.js';
import { SESSION_RENEW_BEFORE_MS } from './limits.js';
import type { Json, JsonObject, Refusal, SubmitResult } from './panel.js';
import { signBytes, type PageSigner } from './signing.js';

export interface Identity extends PageSigner {
  readonly humanId: string;
}

/** A failure that is not the Authority's refusal (the network, a proxy) in the refusal's shape. */
export function localRefusal(code: string, message: string): Refusal {
  return { code, message };
}

function refusalOf(body: unknown, status: number): Refusal {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'object' && error !== null && typeof (error as Refusal).code === 'string') return error as Refusal;
  return localRefusal(status === 404 ? 'NOT_FOUND' : 'HTTP_ERROR', `the server answered ${status}`);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export class ConsoleApi {
  private token: string | undefined;
  private expiresAt = 0;
  private signing: Promise<string> | undefined;

  constructor(readonly identity: Identity) {}

  /** Opens (or renews) the human session: challenge, JCS of the transcript, Ed25519, token. */
  signIn(): Promise<string> {
    this.signing ??= this.openSession().finally(() => (this.signing = undefined));
    return this.signing;
  }

  private async openSession(): Promise<string> {
    const challenge = await this.raw('POST', '/v1/human-sessions/challenge', { humanId: this.identity.humanId, keyId: this.identity.keyId }, false);
    const transcript = challenge['transcript'] as JsonObject;
    const signature = await signBytes(new TextEncoder().encode(canonicalize(transcript)), this.identity);
    const session = await this.raw('POST', '/v1/human-sessions', { challengeId: challenge['challengeId'] as Json, signature }, false);
    this.token = String(session['token']);
    this.expiresAt = Date.parse(String(session['expiresAt']));
    return this.token;
  }

  async bearer(): Promise<string> {
    if (this.token === undefined || Date.now() > this.expiresAt - SESSION_RENEW_BEFORE_MS) return this.signIn();
    return this.token;
  }

  async signOut(): Promise<void> {
    if (this.token === undefined) return;
    await fetch('/v1/human-sessions/current', { method: 'DELETE', headers: { authorization: `Bearer ${this.token}` } }).catch(() => undefined);
    this.token = undefined;
  }

  /** One request; a refusal rejects with its error document. */
  private async raw(method: string, path: string, body: JsonObject | undefined, authorized: boolean): Promise<JsonObject> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorized) headers['authorization'] = `Bearer ${await this.bearer()}`;
    let response: Response;
    try {
      response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (error) {
      throw localRefusal('UNREACHABLE', `the Authority could not be reached (${(error as Error).message})`);
    }
    const json = await readJson(response);
    if (!response.ok) throw refusalOf(json, response.status);
    return (json ?? {}) as JsonObject;
  }

  /**
   * A bearer read. A node that restarted (or the other node) does not know the token and answers
   * AUTH_REQUIRED: sign in again without asking the human (the key is here) and read once more.
   */
  async get(path: string): Promise<JsonObject> {
    try {
      return await this.raw('GET', path, undefined, true);
    } catch (error) {
      if ((error as Refusal).code !== 'AUTH_REQUIRED') throw error;
      this.token = undefined;
      return this.raw('GET', path, undefined, true);
    }
  }

  /** POSTs one signed Command (the token authorizes nothing; the signature does). */
  async postCommand(command: JsonObject): Promise<SubmitResult> {
    try {
      const answer = await this.raw('POST', '/v1/commands', command, false);
      return { ok: true, duplicate: answer['duplicate'] === true, events: (answer['events'] ?? []) as JsonObject[] };
    } catch (error) {
      return { ok: false, error: error as Refusal };
    }
  }

  /** Downloads an Artifact's content with the session (the Approval Panel hashes it). */
  async download(contentHash: string): Promise<ArrayBuffer> {
    const response = await fetch(`/v1/artifacts/${contentHash}`, { headers: { authorization: `Bearer ${await this.bearer()}` } });
    if (!response.ok) throw refusalOf(await readJson(response), response.status);
    return response.arrayBuffer();
  }
}
