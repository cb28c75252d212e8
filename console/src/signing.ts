/**
 * Signed Documents made in the page (§6.4): the Ed25519 signature covers the JCS bytes of the
 * document without its top-level `signature`, and `signature.createdAt` repeats the protected
 * signed time byte for byte — `issuedAt` for a Command, `occurredAt` for an Approval.
 */

import { encodeBase64url } from './base64url.js';
import { signingBytes } from './jcs.js';
import type { PageKey } from './keyImport.js';

export interface PageSigner {
  readonly keyId: string;
  readonly privateKey: PageKey;
}

/** A UTC `Z` timestamp with milliseconds, as the Authority writes them. */
export function nowTimestamp(): string {
  return new Date().toISOString();
}

export async function signDocument<T extends Record<string, unknown>>(document: T, protectedTime: 'issuedAt' | 'occurredAt', signer: PageSigner): Promise<T & { signature: Record<string, string> }> {
  const createdAt = document[protectedTime];
  if (typeof createdAt !== 'string') throw new Error(`${protectedTime} must be set before signing`);
  const bytes = signingBytes(document);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, signer.privateKey, bytes));
  return { ...document, signature: { algorithm: 'Ed25519', keyId: signer.keyId, createdAt, value: encodeBase64url(signature) } };
}

/** Signs raw bytes (the human-session challenge transcript's JCS bytes). */
export async function signBytes(bytes: Uint8Array<ArrayBuffer>, signer: PageSigner): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, signer.privateKey, bytes)));
}
