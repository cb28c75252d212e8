/**
 * The human's signing key, kept in this browser only: a non-extractable WebCrypto Ed25519
 * private key stored in IndexedDB (structured clone keeps a CryptoKey without ever exposing its
 * bytes). It arrives either from the PKCS#8 PEM file `missionweave human add` writes, or is
 * generated here and enrolled with `human add --public-key`. Nothing sends it anywhere: the page
 * signs (signing.ts) and posts only signatures.
 */

import { decodeBase64, encodeBase64url } from './base64url.js';

export interface StoredKey {
  /** `urn:missionweave:human:…` as `human add` printed it; empty until enrolled. */
  readonly humanId: string;
  readonly keyId: string;
  readonly privateKey: CryptoKey;
  /** The raw 32-byte public key, base64url (what `human add --public-key` takes). */
  readonly publicKey: string;
}

const DATABASE = 'missionweave-console';
const STORE = 'keys';
const SLOT = 'human';
const ED25519 = { name: 'Ed25519' } as const;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

async function transact<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
  } finally {
    db.close();
  }
}

export async function loadKey(): Promise<StoredKey | undefined> {
  const stored = (await transact('readonly', (store) => store.get(SLOT))) as StoredKey | undefined;
  return stored === undefined || !(stored.privateKey instanceof CryptoKey) ? undefined : stored;
}

export async function saveKey(key: StoredKey): Promise<void> {
  await transact('readwrite', (store) => store.put(key, SLOT));
}

export async function forgetKey(): Promise<void> {
  await transact('readwrite', (store) => store.delete(SLOT));
}

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
export async function importPkcs8(pem: string): Promise<{ privateKey: CryptoKey; publicKey: string }> {
  const der = pemToDer(pem);
  const probe = await crypto.subtle.importKey('pkcs8', der, ED25519, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', probe);
  if (typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  const privateKey = await crypto.subtle.importKey('pkcs8', der, ED25519, false, ['sign']);
  der.fill(0);
  return { privateKey, publicKey: jwk.x };
}

/** A fresh key pair made in this browser; the private half cannot be exported at all. */
export async function generateKey(): Promise<{ privateKey: CryptoKey; publicKey: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, false, ['sign', 'verify'])) as CryptoKeyPair;
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
