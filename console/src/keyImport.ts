/**
 * Ed25519 keys into WebCrypto: a PKCS#8 file from `missionweave human add`, or a fresh pair made
 * here. The private key ends up non-extractable; only its public half is ever read out.
 */

import { decodeBase64, encodeBase64url } from './base64url.js';

const ED25519 = { name: 'Ed25519' } as const;

/** WebCrypto's CryptoKey, named so that this module also type-checks under Node's typings (tests). */
export type PageKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** The DER bytes of a `-----BEGIN PRIVATE KEY-----` (PKCS#8) PEM text. */
export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (match === null) throw new Error('not a PKCS#8 PEM file (expected "BEGIN PRIVATE KEY")');
  return decodeBase64((match[1] as string).trim());
}

/**
 * Imports a PKCS#8 Ed25519 key as non-extractable. The public half is read from a short-lived
 * extractable import (its JWK `x`), which is dropped at once; only the non-extractable key is kept.
 */
export async function importPkcs8(pem: string): Promise<{ privateKey: PageKey; publicKey: string }> {
  const der = pemToDer(pem);
  const probe = await crypto.subtle.importKey('pkcs8', der, ED25519, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', probe);
  if (typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  const privateKey = await crypto.subtle.importKey('pkcs8', der, ED25519, false, ['sign']);
  der.fill(0);
  return { privateKey, publicKey: jwk.x };
}

/** A fresh key pair made in this browser; the private half cannot be exported at all. */
export async function generateKey(): Promise<{ privateKey: PageKey; publicKey: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, false, ['sign', 'verify'])) as { privateKey: PageKey; publicKey: PageKey };
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: encodeBase64url(raw) };
}

/** Whether this browser signs with Ed25519 in WebCrypto (Chromium 137+, Firefox 129+, Safari 17+). */
export async function ed25519Supported(): Promise<boolean> {
  try {
    await crypto.subtle.generateKey(ED25519, false, ['sign', 'verify']);
    return true;
  } catch {
    return false;
  }
}
