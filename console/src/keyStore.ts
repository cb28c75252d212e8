/**
 * The human's signing key, kept in this browser only: a non-extractable WebCrypto Ed25519
 * private key stored in IndexedDB (structured clone keeps a CryptoKey without ever exposing its
 * bytes). It arrives either from the PKCS#8 PEM file `missionweave human add` writes, or is
 * generated here and enrolled with `human add --public-key`. Nothing sends it anywhere: the page
 * signs (signing.ts) and posts only signatures.
 */


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
