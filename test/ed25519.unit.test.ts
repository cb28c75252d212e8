/**
 * Strict Ed25519 (§6.4): point classification, the S < L rule, OpenSSL verification, and the
 * property the design relies on: with an enrolled (canonical, prime-order) key, a passing
 * cofactorless OpenSSL verification implies R is canonical and of prime order and S < L, so the
 * stage-3 R analysis may run only on failure.
 */

import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { Point } from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyPoint,
  importPublicKey,
  isCanonicalScalar,
  verifyEd25519,
  type PointRejection,
} from '../src/protocol/ed25519.js';
import { describeWithTestdata, testdataJson } from './support/spec.js';

const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const hex = (h: string): Buffer => Buffer.from(h, 'hex');
const le = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).reverse().toString('hex') || '0'}`);
const le32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse();
const sha512 = (...parts: Uint8Array[]): Buffer => createHash('sha512').update(Buffer.concat(parts)).digest();

type Verdict = 'accept' | 'signature-length' | 'S-noncanonical' | 'equation' | `A:${PointRejection}` | `R:${PointRejection}`;

/** Our policy: enrolment of A, then stage 3 (length, R strict, S < L), then stage 6 (OpenSSL). */
function policy(key: Uint8Array, message: Uint8Array, signature: Uint8Array): Verdict {
  const a = classifyPoint(key, false);
  if (a !== null) return `A:${a}`;
  if (signature.length !== 64) return 'signature-length';
  const r = classifyPoint(signature.subarray(0, 32), true);
  if (r !== null) return `R:${r}`;
  if (!isCanonicalScalar(signature.subarray(32))) return 'S-noncanonical';
  return verifyEd25519(importPublicKey(key), message, signature) ? 'accept' : 'equation';
}

interface Vector {
  source: string;
  key: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Property (d) over a vector: with an enrolled key, an OpenSSL pass implies strict R and S. */
function passImpliesStrict(v: Vector): boolean {
  if (classifyPoint(v.key, false) !== null) return false;
  if (!verifyEd25519(importPublicKey(v.key), v.message, v.signature)) return false;
  expect(v.signature, v.source).toHaveLength(64);
  expect(classifyPoint(v.signature.subarray(0, 32), true), v.source).toBeNull();
  expect(isCanonicalScalar(v.signature.subarray(32)), v.source).toBe(true);
  return true;
}

// Low-order encodings from the CCTV README, with what strict decoding makes of them.
const LOW_ORDER: [string, PointRejection | 'identity-ok'][] = [
  ['0000000000000000000000000000000000000000000000000000000000000000', 'small-order'],
  ['edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'noncanonical-encoding'],
  ['0000000000000000000000000000000000000000000000000000000000000080', 'small-order'],
  ['edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'noncanonical-encoding'],
  ['0100000000000000000000000000000000000000000000000000000000000000', 'identity-ok'],
  ['0100000000000000000000000000000000000000000000000000000000000080', 'negative-zero'],
  ['eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'noncanonical-encoding'],
  ['eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'noncanonical-encoding'],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'small-order'],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', 'small-order'],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'small-order'],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', 'small-order'],
  ['ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'small-order'],
  ['ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'negative-zero'],
];
const IDENTITY = LOW_ORDER[4]?.[0] as string;
const TORSION = LOW_ORDER.filter(([, c]) => c === 'small-order').map(([h]) => Point.fromBytes(hex(h)));
const BASE_HEX = '5866666666666666666666666666666666666666666666666666666666666666';

describe('ed25519: classifyPoint', () => {
  it.each(LOW_ORDER)('low-order encoding %s', (h, expected) => {
    if (expected === 'identity-ok') {
      expect(classifyPoint(hex(h), true)).toBeNull();
      expect(classifyPoint(hex(h), false)).toBe('identity');
    } else {
      expect(classifyPoint(hex(h), true)).toBe(expected);
      expect(classifyPoint(hex(h), false)).toBe(expected);
    }
  });

  it('accepts prime-order points and refuses the rest', () => {
    expect(classifyPoint(hex(BASE_HEX), false)).toBeNull();
    expect(classifyPoint(Point.BASE.multiply(12345n).toBytes(), false)).toBeNull();
    const mixed = Point.BASE.add(TORSION[4] as Point).toBytes();
    expect(classifyPoint(mixed, false)).toBe('mixed-order');
    expect(classifyPoint(mixed, true)).toBe('mixed-order');
    const y2 = new Uint8Array(32);
    y2[0] = 2;
    expect(classifyPoint(y2, true)).toBe('off-curve');
    for (const n of [0, 31, 33, 64]) expect(classifyPoint(new Uint8Array(n), true)).toBe('wrong-length');
    // y = p + 3: the on-curve y = 3 point spelled with an out-of-range y.
    const yp = hex('f0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f');
    expect(classifyPoint(yp, true)).toBe('noncanonical-encoding');
  });

  it('classifies B + T for every torsion point T as mixed order, and [n]B as prime order', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: L - 1n }), fc.constantFrom(...TORSION), (n, t) => {
        const p = Point.BASE.multiply(n);
        expect(classifyPoint(p.toBytes(), false)).toBeNull();
        expect(classifyPoint(p.add(t).toBytes(), true)).toBe('mixed-order');
      }),
      { numRuns: 30 },
    );
  });
});

describe('ed25519: isCanonicalScalar (0 <= S < L, never reduced)', () => {
  it.each([
    [0n, true], [1n, true], [L - 1n, true], [1n << 252n, true],
    [L, false], [L + 1n, false], [1n << 253n, false], [(1n << 256n) - 1n, false],
  ])('%s -> %s', (s, ok) => {
    expect(isCanonicalScalar(le32(s))).toBe(ok);
  });

  it('agrees with a BigInt comparison and refuses other lengths', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (b) => {
      expect(isCanonicalScalar(b)).toBe(le(b) < L);
    }));
    for (const n of [0, 31, 33]) expect(isCanonicalScalar(new Uint8Array(n))).toBe(false);
  });
});

describe('ed25519: importPublicKey and verifyEd25519', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'der', type: 'spki' })).subarray(12);
  const message = Buffer.from('signed bytes');
  const signature = sign(null, message, privateKey);

  it('verifies a fresh signature and nothing else', () => {
    const key = importPublicKey(raw);
    expect(verifyEd25519(key, message, signature)).toBe(true);
    expect(verifyEd25519(key, Buffer.from('signed bytez'), signature)).toBe(false);
    const flipped = Buffer.from(signature);
    flipped[40] = (flipped[40] as number) ^ 1;
    expect(verifyEd25519(key, message, flipped)).toBe(false);
    for (const bad of [signature.subarray(0, 63), Buffer.concat([signature, Buffer.of(0)]), Buffer.alloc(0)]) {
      expect(verifyEd25519(key, message, bad)).toBe(false);
    }
    // S + L satisfies the same equation; OpenSSL must refuse it (no reduction modulo L).
    const sPlusL = Buffer.concat([signature.subarray(0, 32), le32(le(signature.subarray(32)) + L)]);
    expect(verifyEd25519(key, message, sPlusL)).toBe(false);
    expect(policy(raw, message, sPlusL)).toBe('S-noncanonical');
    expect(policy(raw, message, signature)).toBe('accept');
  });
});

describeWithTestdata('ed25519: RFC 8032 §7.1 test vectors', () => {
  const file = testdataJson<{ tests: { name: string; secretKey: string; publicKey: string; message: string; signature: string }[] }>(
    'rfc8032/rfc8032-section7.1-ed25519.json',
  );
  it.each(file.tests.map((t) => [t.name, t] as const))('%s', (_name, t) => {
    expect(policy(hex(t.publicKey), hex(t.message), hex(t.signature))).toBe('accept');
    const pkcs8 = Buffer.concat([hex('302e020100300506032b657004220420'), hex(t.secretKey)]);
    const secret = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
    expect(sign(null, hex(t.message), secret).toString('hex')).toBe(t.signature);
  });
});

interface WycheproofFile {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: { tcId: number; flags: string[]; msg: string; sig: string; result: string }[] }[];
}

describeWithTestdata('ed25519: Wycheproof ed25519_test.json under our policy', () => {
  const file = testdataJson<WycheproofFile>('wycheproof/ed25519_test.json');
  const tests = file.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, pk: g.publicKey.pk })));
  const verdicts = tests.map((t) => ({ t, verdict: policy(hex(t.pk), hex(t.msg), hex(t.sig)) }));

  it('accepts every valid case (88) and refuses every invalid one (63)', () => {
    expect(tests).toHaveLength(file.numberOfTests);
    // No "valid" case needs our stricter rules to refuse it: Wycheproof keys are all prime order.
    expect(verdicts.filter((v) => v.t.result === 'valid').map((v) => v.verdict)).toStrictEqual(Array(88).fill('accept'));
    const invalid = verdicts.filter((v) => v.t.result === 'invalid');
    expect(invalid).toHaveLength(63);
    for (const v of invalid) expect(v.verdict, `tcId ${v.t.tcId}`).not.toBe('accept');
  });

  it('refuses each invalid case at the expected check', () => {
    const byFlag: Record<string, Record<string, number>> = {};
    for (const { t, verdict } of verdicts) {
      if (t.result !== 'invalid') continue;
      const flag = t.flags.join(',');
      byFlag[flag] ??= {};
      (byFlag[flag] as Record<string, number>)[verdict] = ((byFlag[flag] as Record<string, number>)[verdict] ?? 0) + 1;
    }
    expect(byFlag).toStrictEqual({
      InvalidSignature: { 'R:small-order': 5, equation: 3, 'S-noncanonical': 2, 'R:off-curve': 5, 'R:noncanonical-encoding': 5 },
      TruncatedSignature: { 'signature-length': 3 },
      SignatureWithGarbage: { 'signature-length': 5 },
      CompressedSignature: { 'signature-length': 4 },
      InvalidEncoding: { 'R:mixed-order': 8, 'R:off-curve': 7, equation: 4, 'R:small-order': 1, 'R:noncanonical-encoding': 1, 'R:negative-zero': 1 },
      SignatureMalleability: { 'S-noncanonical': 8 },
      InvalidKtv: { 'S-noncanonical': 1 },
    });
  });

  it('property (d): an OpenSSL pass implies a strict R and a canonical S', () => {
    const passed = tests.filter((t) =>
      passImpliesStrict({ source: `wycheproof ${t.tcId}`, key: hex(t.pk), message: hex(t.msg), signature: hex(t.sig) }),
    );
    expect(passed).toHaveLength(88);
  });
});

describeWithTestdata('ed25519: CCTV ed25519vectors.json under our policy', () => {
  const vectors = testdataJson<{ number: number; key: string; sig: string; msg: string; flags: string[] | null }[]>(
    'cctv/ed25519vectors.json',
  ).map((v) => ({ ...v, flags: v.flags ?? [], verdict: policy(hex(v.key), Buffer.from(v.msg), hex(v.sig)) }));

  it('accepts exactly the unflagged vector and the identity-R vector', () => {
    expect(vectors).toHaveLength(914);
    const accepted = vectors.filter((v) => v.verdict === 'accept');
    // §6.4 permits the identity for R. The one vector whose only flag is low_order_R has R = I
    // and an S satisfying [S]B = [k]A, so it verifies and is (correctly) accepted.
    expect(accepted.map((v) => v.flags)).toStrictEqual([['low_order_R'], []]);
    expect(accepted[0]?.sig.slice(0, 64)).toBe(IDENTITY);
    expect(vectors.filter((v) => v.flags.length === 0)).toHaveLength(1);
  });

  it('refuses each flagged vector at the check the flags predict', () => {
    for (const v of vectors) {
      const has = (flag: string): boolean => v.flags.includes(flag);
      const where = `CCTV #${v.number} ${v.flags.join(',')}`;
      let expected: Verdict[];
      if (has('non_canonical_A')) expected = ['A:noncanonical-encoding', 'A:negative-zero'];
      else if (has('low_order_A')) expected = v.key === IDENTITY ? ['A:identity'] : ['A:small-order'];
      else if (has('low_order_component_A')) expected = ['A:mixed-order'];
      else if (has('non_canonical_R')) expected = ['R:noncanonical-encoding', 'R:negative-zero'];
      else if (has('low_order_R')) expected = v.sig.startsWith(IDENTITY) ? ['accept'] : ['R:small-order'];
      else if (has('low_order_component_R')) expected = ['R:mixed-order'];
      else expected = ['accept'];
      expect(expected, where).toContain(v.verdict);
    }
  });

  it('property (d): an OpenSSL pass with an enrolled key implies a strict R and a canonical S', () => {
    const passed = vectors.filter((v) =>
      passImpliesStrict({ source: `CCTV #${v.number}`, key: hex(v.key), message: Buffer.from(v.msg), signature: hex(v.sig) }),
    );
    expect(passed).toHaveLength(2);
    // Without enrolment OpenSSL accepts many small- and mixed-order keys: enrolment is essential.
    const lenient = vectors.filter((v) => verifyEd25519(importPublicKey(hex(v.key)), Buffer.from(v.msg), hex(v.sig)));
    expect(lenient.length).toBeGreaterThan(2);
  });
});

describe('ed25519: property (d) on crafted mixed-order R', () => {
  // R = [r]B + T with S = r + k·a: the cofactored equation holds, the cofactorless one does not.
  it('OpenSSL refuses it and stage 3 calls it mixed order; with T = I it is accepted', () => {
    const seeds = fc.uint8Array({ minLength: 32, maxLength: 32 });
    fc.assert(
      fc.property(seeds, fc.bigInt({ min: 1n, max: L - 1n }), fc.constantFrom(...TORSION), (seed, r, t) => {
        const h = sha512(seed);
        h[0] = (h[0] as number) & 248;
        h[31] = ((h[31] as number) & 127) | 64;
        const a = le(h.subarray(0, 32)) % L;
        const key = Point.BASE.multiply(a).toBytes();
        const message = Buffer.from(seed).subarray(0, 7);
        const forge = (R: Point) => {
          const k = le(sha512(R.toBytes(), key, message)) % L;
          return { k, sig: Buffer.concat([R.toBytes(), le32((r + k * a) % L)]) };
        };
        const honest = forge(Point.BASE.multiply(r));
        expect(policy(key, message, honest.sig)).toBe('accept');
        const R = Point.BASE.multiply(r).add(t);
        const { k, sig } = forge(R);
        const S = le(sig.subarray(32));
        const cofactored = Point.BASE.multiply(S).multiply(8n).equals(R.add(Point.fromBytes(key).multiply(k)).multiply(8n));
        expect(cofactored).toBe(true);
        expect(verifyEd25519(importPublicKey(key), message, sig)).toBe(false);
        expect(policy(key, message, sig)).toBe('R:mixed-order');
        passImpliesStrict({ source: 'crafted', key, message, signature: sig });
      }),
      { numRuns: 40 },
    );
  });
});
