/**
 * Commands that fail signature verification in chosen ways, and an HTTPS flood of them, for the
 * tests of what refusing costs the server (issue 10: hostile clients).
 */

import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:https';
import type { CommandRequest } from '../../src/app/issueDocuments.js';
import { generatePrivateKey } from '../../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { Actor, Harness } from './harness.js';

/** The same Command signed with a key the Registry has never seen (R is a valid point). */
export function withUnknownKey(h: Harness, actor: Actor, kind: string, payload: JsonObject, extra: Partial<CommandRequest> = {}): JsonObject {
  const stranger: Actor = { principal: actor.principal, key: { keyId: `urn:uuid:${randomUUID()}`, privateKey: generatePrivateKey() } };
  return h.sign(stranger, kind, payload, extra);
}

/** The Command with the signature's R and S replaced (base64url of 64 bytes). */
export function withSignature(command: JsonObject, r: Buffer, s: Buffer): JsonObject {
  const signature = command['signature'] as JsonObject;
  return { ...command, signature: { ...signature, value: Buffer.concat([r, s]).toString('base64url') } };
}

/** R bytes whose y is not below p: refused by the cheap first check of stage 3. */
export const NONCANONICAL_R = Buffer.alloc(32, 0xff);
/** The identity point, which stage 3 allows for R (§6.4). */
export const IDENTITY_R = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]);
export const ZERO_S = Buffer.alloc(32);

/** The Command with its payload changed after signing: a valid R, a signature that does not verify. */
export function tampered(command: JsonObject): JsonObject {
  return { ...command, payload: { ...(command['payload'] as JsonObject), tampered: true } };
}

export interface HttpsAnswer {
  readonly status: number;
  readonly body: string;
}

/** POSTs each body to `/v1/commands` over `connections` keep-alive connections; answers in order. */
export async function postCommands(httpsUrl: string, ca: string, bodies: readonly string[], connections = 8): Promise<HttpsAnswer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, ca });
  const answers: HttpsAnswer[] = new Array(bodies.length);
  let next = 0;
  const one = (body: string): Promise<HttpsAnswer> =>
    new Promise((resolve, reject) => {
      const req = request(new URL('/v1/commands', httpsUrl), { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < bodies.length; i = next++) answers[i] = await one(bodies[i] as string);
    }),
  );
  agent.destroy();
  return answers;
}
