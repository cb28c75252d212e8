/**
 * The Signed Document cryptography bundle (§22: 22 cases, 62 evaluations): each evaluation's
 * document goes through our six stages against its Registry fixture; the first failing stage
 * and wire code must match, and a success must reproduce the signing bytes, signing hash,
 * resolved key and Principal, protected time and signature (re-signed from the test seed).
 */

import { sha256ContentHash } from '../../protocol/contentHash.js';
import { canonicalBytes } from '../../protocol/jcs.js';
import type { SchemaRegistry } from '../../protocol/schemas/registry.js';
import { privateKeyFromSeed, signBytes } from '../../protocol/signing/signDocument.js';
import type { DocumentKind } from '../../protocol/signing/profiles.js';
import { registryInput, verifySignedDocument } from '../../protocol/signing/verifySignedDocument.js';
import type { VerificationResult } from '../../protocol/signing/verification.js';
import { decodeBase64url } from '../../protocol/base64url.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { Bundle, emptyReport, record, type SuiteReport } from './bundle.js';

export const CRYPTOGRAPHY_MANIFEST = 'cryptography/manifest.json';

interface Evaluation extends JsonObject {
  profileId: string;
  document: string;
  registry: string;
  expect: JsonObject;
}

/** Runs one signed-document evaluation through all six stages against its fixture. */
export function verifyEvaluation(bundle: Bundle, schemas: SchemaRegistry, manifest: JsonObject, e: JsonObject): VerificationResult {
  const fixtures = manifest['fixtureSchemas'] as JsonObject;
  const registry = bundle.json(String(e['registry']));
  if (!bundle.conforms(String(fixtures['registry']), registry)) {
    throw new Error(`${String(e['registry'])} does not conform to the Registry fixture schema`);
  }
  return verifySignedDocument(e['profileId'] as DocumentKind, bundle.bytes(String(e['document'])), registryInput(registry), schemas);
}

function compareComplete(bundle: Bundle, manifest: JsonObject, e: Evaluation, result: VerificationResult): string | null {
  if (!result.ok) return `expected complete, got ${result.failure.stage} (${result.failure.reason})`;
  const want = e.expect['verified'] as JsonObject;
  const got = result.verified;
  const principal = want['principal'] as JsonObject;
  const checks: [string, boolean][] = [
    ['keyId', got.keyId === want['keyId']],
    ['principal', got.principal.type === principal['type'] && got.principal.id === principal['id']],
    ['protectedTime', got.protectedTime === want['protectedTime']],
    ['signingBytes', got.signingBytes.equals(bundle.bytes(String(want['signingBytes'])))],
    ['signingHash', got.signingHash === want['signingHash']],
    ['signature', got.signatureValue === want['signature']],
    ['signedDocumentHash', sha256ContentHash(canonicalBytes(got.document)) === want['signedDocumentHash']],
  ];
  const keyPath = e['signingKey'];
  if (typeof keyPath === 'string') {
    const key = bundle.json(keyPath) as JsonObject;
    const fixtures = manifest['fixtureSchemas'] as JsonObject;
    checks.push(['signingKey fixture', bundle.conforms(String(fixtures['signingKey']), key)]);
    const seed = decodeBase64url(String(key['seed']));
    checks.push(['re-signed', seed !== null && signBytes(privateKeyFromSeed(seed), got.signingBytes) === want['signature']]);
  }
  const wrong = checks.filter(([, ok]) => !ok).map(([name]) => name);
  return wrong.length === 0 ? null : `mismatch in ${wrong.join(', ')}`;
}

function runSignedEvaluation(bundle: Bundle, schemas: SchemaRegistry, manifest: JsonObject, e: Evaluation): string | null {
  const result = verifyEvaluation(bundle, schemas, manifest, e);
  if (e.expect['stage'] === 'complete') return compareComplete(bundle, manifest, e, result);
  if (result.ok) return `expected ${String(e.expect['stage'])}, got complete`;
  const { stage, code, reason } = result.failure;
  if (stage !== e.expect['stage'] || code !== e.expect['wireCode']) {
    return `expected ${String(e.expect['stage'])}/${String(e.expect['wireCode'])}, got ${stage}/${code} (${reason})`;
  }
  return null;
}

function runCanonicalization(bundle: Bundle, e: JsonObject): string | null {
  const bytes = canonicalBytes(bundle.json(String(e['input'])));
  if (!bytes.equals(bundle.bytes(String(e['expectedJcs'])))) return 'canonical bytes differ';
  return sha256ContentHash(bytes) === e['sha256'] ? null : 'sha256 differs';
}

export function runCryptography(bundle: Bundle, schemas: SchemaRegistry): SuiteReport {
  const report = emptyReport();
  const manifest = bundle.json(CRYPTOGRAPHY_MANIFEST) as JsonObject;
  for (const problem of bundle.integrity(manifest)) report.failures.push(`integrity: ${problem}`);
  if (!bundle.conforms('cryptography/manifest.schema.json', manifest)) {
    report.failures.push('integrity: manifest does not conform to its schema');
  }
  for (const c of manifest['cases'] as JsonObject[]) {
    (c['evaluations'] as JsonObject[]).forEach((e, index) => {
      const id = `${String(c['id'])}#${index}`;
      let problem: string | null;
      try {
        problem =
          c['kind'] === 'canonicalization'
            ? runCanonicalization(bundle, e)
            : runSignedEvaluation(bundle, schemas, manifest, e as Evaluation);
      } catch (error) {
        problem = `threw ${(error as Error).message}`;
      }
      record(report, id, problem);
    });
  }
  return report;
}
