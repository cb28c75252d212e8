/**
 * The signing helpers `missionweave/client` exports for an Agent's own Signed Documents
 * (src/client/signer.ts) against the official cryptography bundle, read at run time: re-signing
 * each golden Approval, Artifact manifest, Evidence and Command from its test seed reproduces
 * the bundle's signing bytes, signing hash and signature exactly, and the result passes the six
 * stages of §6.4 under the bundle's Registry fixture.
 */

import { expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url, keySigner, sha256ContentHash, signApproval, signArtifactManifest, signEvidence, signingBytes, signingHash, signWith, type Signer, type SignedResult } from '../src/client/index.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { privateKeyFromSeed } from '../src/protocol/signing/signDocument.js';
import { registryInput, verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { DocumentKind } from '../src/protocol/signing/profiles.js';
import { describeWithSpec, specBytes, specJson } from './support/spec.js';

interface Evaluation {
  profileId: DocumentKind;
  document: string;
  registry: string;
  signingKey?: string;
  expect: { stage: string; verified?: { signingBytes: string; signingHash: string; signature: string } };
}

type Sign = (unsigned: Record<string, unknown>, signer: Signer) => Promise<SignedResult<Record<string, unknown>>>;

const HELPERS: Partial<Record<DocumentKind, Sign>> = {
  approval: signApproval,
  artifact: signArtifactManifest,
  evidence: signEvidence,
  command: (unsigned, signer) => signWith('command', unsigned, signer),
};

describeWithSpec('client signing helpers', () => {
  it('reproduce the bundle’s golden Approval, Artifact manifest, Evidence and Command byte for byte', async () => {
    const manifest = specJson<{ cases: { id: string; evaluations: Evaluation[] }[] }>('cryptography/manifest.json');
    const golden = manifest.cases.flatMap((c) => c.evaluations).filter((e) => e.expect?.stage === 'complete' && e.signingKey !== undefined && HELPERS[e.profileId] !== undefined);
    expect(new Set(golden.map((e) => e.profileId))).toEqual(new Set(['approval', 'artifact', 'evidence', 'command']));
    for (const evaluation of golden) {
      const key = specJson<{ keyId: string; seed: string }>(evaluation.signingKey as string);
      const signer = keySigner(key.keyId, privateKeyFromSeed(decodeBase64url(key.seed) as Buffer));
      const { signature: _signature, ...unsigned } = specJson<Record<string, unknown>>(evaluation.document);
      const signed = await (HELPERS[evaluation.profileId] as Sign)(unsigned, signer);
      const want = evaluation.expect.verified as NonNullable<Evaluation['expect']['verified']>;
      expect(signed.signingBytes.equals(specBytes(want.signingBytes)), evaluation.document).toBe(true);
      expect(signed.signingHash).toBe(want.signingHash);
      expect(signingHash(signed.document)).toBe(want.signingHash);
      expect(sha256ContentHash(signingBytes(signed.document))).toBe(want.signingHash);
      expect((signed.document.signature as { value: string }).value).toBe(want.signature);
      const result = verifySignedDocument(evaluation.profileId, Buffer.from(JSON.stringify(signed.document)), registryInput(specJson(evaluation.registry)), schemaRegistry());
      expect(result.ok, evaluation.document).toBe(true);
    }
  });

  it('round-trips base64url canonically and refuses a non-canonical encoding', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0x01]);
    expect(encodeBase64url(bytes)).toBe('-_8B');
    expect(decodeBase64url('-_8B')?.equals(bytes)).toBe(true);
    expect(decodeBase64url('-_8B=')).toBeNull();
  });
});
