/**
 * The six-stage Signed Document verification with keys made here: round trips, each stage's
 * failure, stage precedence when several faults coexist, and the deferred analysis of R.
 */

import { describe, expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url } from '../src/protocol/base64url.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { registryInput, verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import { evidence, makeKey, unsignedCommand, type TestKey } from './support/keys.js';

const schemas = schemaRegistry();
const agent = { type: 'agent', id: 'urn:missionweave:agent:writer' } as const;
const writer = makeKey(agent);

/** An order-2 point: canonical, on the curve, small order. */
const SMALL_ORDER_R = Buffer.from('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'hex');

function signed(overrides: Record<string, unknown> = {}, key: TestKey = writer): Record<string, unknown> {
  return signDocument('command', unsignedCommand(agent, overrides), key.signingKey) as Record<string, unknown>;
}

function verify(document: unknown, keys: TestKey[] = [writer], text?: string) {
  const bytes = Buffer.from(text ?? JSON.stringify(document), 'utf8');
  return verifySignedDocument('command', bytes, registryInput(evidence(...keys)), schemas);
}

function withSignatureBytes(document: Record<string, unknown>, edit: (sig: Buffer) => void): Record<string, unknown> {
  const envelope = document['signature'] as Record<string, string>;
  const sig = decodeBase64url(envelope['value'] as string) as Buffer;
  edit(sig);
  return { ...document, signature: { ...envelope, value: encodeBase64url(sig) } };
}

function stageOf(result: ReturnType<typeof verify>): string {
  return result.ok ? 'complete' : `${result.failure.stage}:${result.failure.reason}`;
}

describe('six-stage verification', () => {
  it('verifies a freshly signed Command and retains its evidence', () => {
    const result = verify(signed());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.verified.principal).toEqual(agent);
    expect(result.verified.keyId).toBe(writer.binding.keyId);
    expect(result.verified.signingHash).toBe(sha256ContentHash(result.verified.signingBytes));
    expect(result.verified.signingBytes.toString('utf8')).not.toContain('"signature"');
  });

  it('accepts any member order and whitespace: the signature covers JCS bytes', () => {
    const document = signed();
    const reordered = Object.fromEntries(Object.entries(document).reverse());
    expect(verify(reordered, [writer], JSON.stringify(reordered, null, 2)).ok).toBe(true);
  });

  it('classifies each single fault at its stage and wire code', () => {
    const cases: [string, string, string][] = [
      ['{"a":1,"a":2}', 'parse:json-duplicate-member', 'PROTOCOL_VIOLATION'],
      [JSON.stringify({ ...signed(), extra: 1 }), 'schema:schema-invalid', 'SCHEMA_VALIDATION_FAILED'],
      [JSON.stringify(signed()).replaceAll('2026-07-15T00:00:00Z', '2026-07-15T00:00:00z'), 'signature-envelope:protected-time-not-utc-z', 'AUTH_INVALID_SIGNATURE'],
      [JSON.stringify({ ...signed(), issuedAt: '2026-07-15T00:00:00.0Z' }), 'signature-envelope:created-at-mismatch', 'AUTH_INVALID_SIGNATURE'],
      [JSON.stringify(signed({ actor: { type: 'agent', id: 'urn:missionweave:agent:other' } })), 'key-resolution:signer-mismatch', 'AUTH_INVALID_SIGNATURE'],
      [JSON.stringify(signed({ issuedAt: '2025-12-31T23:59:59Z' })), 'key-resolution:key-not-valid-at-protected-time', 'AUTH_INVALID_SIGNATURE'],
      [JSON.stringify(signed()).replace('"content":"hello"', '"content":"hellO"'), 'signature:signature-mismatch', 'AUTH_INVALID_SIGNATURE'],
    ];
    for (const [text, expected, code] of cases) {
      const result = verify(undefined, [writer], text);
      expect(stageOf(result), text).toBe(expected);
      expect(result.ok ? null : result.failure.code).toBe(code);
    }
  });

  it('refuses values outside the JCS data model at stage 5 after stage 4 passed', () => {
    const text = JSON.stringify(signed({ extensions: { 'urn:x:e': { version: '1.0.0', critical: false, data: { n: 1 } } } }));
    expect(stageOf(verify(undefined, [writer], text.replace('"n":1', '"n":1e400')))).toBe('canonicalization:jcs-non-finite-number');
    expect(stageOf(verify(undefined, [writer], text.replace('"n":1', '"n":"\\udc00"')))).toBe('canonicalization:jcs-unpaired-surrogate');
  });

  it('reports a bad R at stage 3 even when stages 4, 5 or 6 also fail', () => {
    const badR = withSignatureBytes(signed(), (sig) => SMALL_ORDER_R.copy(sig, 0));
    expect(stageOf(verify(badR))).toBe('signature-envelope:signature-r-small-order');
    expect(stageOf(verify(badR, []))).toBe('signature-envelope:signature-r-small-order');
    const text = JSON.stringify(badR).replace('"content":"hello"', '"content":1e400');
    expect(stageOf(verify(undefined, [writer], text))).toBe('signature-envelope:signature-r-small-order');
  });

  it('accepts the identity R at stage 3 and lets the equation decide', () => {
    const identityR = withSignatureBytes(signed(), (sig) => {
      sig.fill(0, 0, 32);
      sig[0] = 1;
    });
    expect(stageOf(verify(identityR))).toBe('signature:signature-mismatch');
  });

  it('refuses S >= L, a short signature and non-canonical base64url at stage 3', () => {
    const bigS = withSignatureBytes(signed(), (sig) => sig.fill(0xff, 32, 64));
    expect(stageOf(verify(bigS))).toBe('signature-envelope:signature-s-out-of-range');
    const document = signed();
    const envelope = document['signature'] as Record<string, string>;
    const short = { ...document, signature: { ...envelope, value: (envelope['value'] as string).slice(0, 84) } };
    expect(stageOf(verify(short))).toBe('signature-envelope:signature-wrong-length');
    const value = envelope['value'] as string;
    const last = value.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const padBits = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) & 3) ^ 1)] as string;
    const noisy = { ...document, signature: { ...envelope, value: value.slice(0, -1) + padBits } };
    expect(stageOf(verify(noisy))).toBe('signature-envelope:signature-not-canonical-base64url');
  });

  it('evaluates key validity as half-open instants with every fraction digit', () => {
    const history = [{ sequence: 1, recordedAt: '2026-07-16T00:00:00Z', validUntil: '2026-07-15T00:00:00.0000000001Z' }];
    const bounded = makeKey(agent, { validityHistory: history });
    const doc = signed({}, bounded);
    expect(verify(doc, [bounded]).ok).toBe(true);
    const tight = makeKey(agent, { validityHistory: [{ ...history[0]!, validUntil: '2026-07-15T00:00:00.000Z' }] });
    expect(stageOf(verify(signed({}, tight), [tight]))).toBe('key-resolution:key-not-valid-at-protected-time');
    const revoked = makeKey(agent, { validityHistory: [{ sequence: 1, recordedAt: '2026-07-16T00:00:00Z', revokedAt: '2026-07-15T02:00:00+02:00' }] });
    expect(stageOf(verify(signed({}, revoked), [revoked]))).toBe('key-resolution:key-not-valid-at-protected-time');
    const from = makeKey(agent, { validFrom: '2026-07-15T01:00:00+01:00' });
    expect(verify(signed({}, from), [from]).ok).toBe(true);
  });
});
