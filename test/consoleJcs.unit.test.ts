/**
 * The console signs in the browser with its own JCS (console/src/jcs.ts) and WebCrypto: both must
 * give exactly the bytes and signatures the Authority verifies. Here, on Node's WebCrypto (the
 * same API Chromium has): the RFC 8785 vectors against the server's src/protocol/jcs.ts, the
 * refusals, and a PKCS#8 key from `human add` imported non-extractable, signing a Command the
 * server's signing input verifies.
 */

import { generateKeyPairSync, verify } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../console/src/base64url.js';
import { canonicalize as pageCanonicalize, signingBytes as pageSigningBytes } from '../console/src/jcs.js';
import { generateKey, importPkcs8, pemToDer } from '../console/src/keyImport.js';
import { signDocument } from '../console/src/signing.js';
import { canonicalize, canonicalBytesWithout } from '../src/protocol/jcs.js';
import { publicKeyBase64url } from '../src/protocol/signing/signDocument.js';
import { describeWithTestdata, TESTDATA_DIR } from './support/spec.js';

describeWithTestdata('console JCS: the RFC 8785 vectors, byte for byte as the server', () => {
  const dir = join(TESTDATA_DIR, 'jcs');
  const names = readdirSync(join(dir, 'input')).filter((f) => f.endsWith('.json')).sort();

  it.each(names)('%s', (name) => {
    const value: unknown = JSON.parse(readFileSync(join(dir, 'input', name), 'utf8'));
    const expected = readFileSync(join(dir, 'output', name), 'utf8');
    expect(pageCanonicalize(value)).toBe(expected);
    expect(pageCanonicalize(value)).toBe(canonicalize(value));
  });

  it('numbers: RFC 8785 Appendix B', () => {
    const rows = readFileSync(join(TESTDATA_DIR, 'jcs-numbers', 'rfc8785-appendixB-and-samples.csv'), 'utf8').split('\n').filter((l) => l.trim() !== '');
    expect(rows.length).toBeGreaterThan(20);
    for (const [hex, expected] of rows.map((l) => l.split(','))) {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, BigInt(`0x${hex}`));
      expect(pageCanonicalize(view.getFloat64(0))).toBe(expected);
    }
  });
});

describe('console JCS: what it refuses and leaves out', () => {
  it('refuses values outside I-JSON instead of rewriting them', () => {
    expect(() => pageCanonicalize(Number.NaN)).toThrow(/not finite/);
    expect(() => pageCanonicalize({ a: Infinity })).toThrow(/not finite/);
    expect(() => pageCanonicalize('\uD800x')).toThrow(/surrogate/);
    expect(pageCanonicalize('\uD83D\uDE00')).toBe(canonicalize('\uD83D\uDE00'));
    expect(() => pageCanonicalize(new Date(0))).toThrow(/plain objects/);
  });

  it('omits exactly the top-level signature from the signing input', () => {
    const document = { b: 1, signature: { value: 'x' }, a: { signature: 'kept' } };
    expect(new TextDecoder().decode(pageSigningBytes(document))).toBe('{"a":{"signature":"kept"},"b":1}');
    expect(Buffer.from(pageSigningBytes(document))).toStrictEqual(canonicalBytesWithout(document, 'signature'));
  });
});

describe('console keys and signatures on WebCrypto', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

  it('imports the PKCS#8 file non-extractable and reads the same public key', async () => {
    expect(pemToDer(pem)).toHaveLength(48);
    const imported = await importPkcs8(pem);
    expect(imported.privateKey.extractable).toBe(false);
    expect(imported.publicKey).toBe(publicKeyBase64url(privateKey));
    await expect(crypto.subtle.exportKey('pkcs8', imported.privateKey)).rejects.toThrow();
    expect(() => pemToDer('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----')).toThrow(/PKCS#8/);
  });

  it('signs a Command whose signature verifies over the server\'s signing input', async () => {
    const imported = await importPkcs8(pem);
    const command = {
      protocolVersion: '0.1', actionId: 'urn:uuid:8d1f6c0e-3f7e-4a53-9d2e-6b7a3f1f0a01', actor: { type: 'human', id: 'urn:missionweave:human:alice' },
      kind: 'message.post', correlationId: 'urn:uuid:8d1f6c0e-3f7e-4a53-9d2e-6b7a3f1f0a02', issuedAt: '2026-12-01T10:00:00.000Z',
      groupId: 'urn:missionweave:group:g', membershipEpoch: 1, payload: { messageId: 'urn:uuid:m', conversationId: 'urn:c', content: 'Zürich → 東京 ☃' },
    };
    const signed = await signDocument(command, 'issuedAt', { keyId: 'urn:uuid:k', privateKey: imported.privateKey });
    expect(signed.signature).toMatchObject({ algorithm: 'Ed25519', keyId: 'urn:uuid:k', createdAt: command.issuedAt });
    const bytes = canonicalBytesWithout(signed as Record<string, unknown>, 'signature');
    expect(verify(null, bytes, publicKey, Buffer.from(decodeBase64(String(signed.signature['value']))))).toBe(true);
    const tampered = canonicalBytesWithout({ ...signed, membershipEpoch: 2 } as Record<string, unknown>, 'signature');
    expect(verify(null, tampered, publicKey, Buffer.from(decodeBase64(String(signed.signature['value']))))).toBe(false);
  });

  it('generates a key whose private half cannot leave WebCrypto', async () => {
    const pair = await generateKey();
    expect(pair.privateKey.extractable).toBe(false);
    expect(pair.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
