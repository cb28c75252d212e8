/**
 * The First-Admission bundle (§22: 5 cases, 30 evaluations). Each evaluation reruns the six
 * stages, then drives our first-admission or historical-replay orchestration against an
 * Admission Log that returns exactly the typed outcomes the evaluation declares.
 */

import { sha256ContentHash } from '../../protocol/contentHash.js';
import { canonicalBytesWithout } from '../../protocol/jcs.js';
import type { Principal } from '../../protocol/principal.js';
import type { SchemaRegistry } from '../../protocol/schemas/registry.js';
import {
  admitFirst,
  replayHistorical,
  type AdmissionLog,
  type AppendResult,
  type LookupResult,
  type TrustedContext,
} from '../../protocol/signing/admission.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { Bundle, emptyReport, record, type SuiteReport } from './bundle.js';
import { CRYPTOGRAPHY_MANIFEST, verifyEvaluation } from './cryptography.js';

/** An Admission Log whose answers are scripted by one evaluation. */
class ScriptedLog implements AdmissionLog {
  appended = false;

  constructor(
    private readonly bundle: Bundle,
    private readonly lookupScript: JsonObject,
    private readonly appendScript: JsonObject | null,
  ) {}

  private outcome(script: JsonObject): LookupResult & AppendResult {
    const status = String(script['status']);
    if (typeof script['record'] !== 'string') return { status } as LookupResult & AppendResult;
    return {
      status,
      recordBytes: this.bundle.bytes(script['record']),
      authenticatedService: script['authenticatedService'] as unknown as Principal,
    } as LookupResult & AppendResult;
  }

  lookup(): Promise<LookupResult> {
    return Promise.resolve(this.outcome(this.lookupScript));
  }

  appendOrReturnExisting(): Promise<AppendResult> {
    this.appended = true;
    if (this.appendScript === null) return Promise.reject(new Error('append was not expected'));
    return Promise.resolve(this.outcome(this.appendScript));
  }
}

async function runEvaluation(bundle: Bundle, schemas: SchemaRegistry, crypto: JsonObject, e: JsonObject): Promise<string | null> {
  const six = verifyEvaluation(bundle, schemas, crypto, e);
  if (!six.ok) return `six stages failed at ${six.failure.stage} (${six.failure.reason})`;
  const log = new ScriptedLog(bundle, e['lookup'] as JsonObject, (e['append'] as JsonObject | null) ?? null);
  const context = e['trustedContext'] as unknown as TrustedContext | null;
  const outcome =
    e['mode'] === 'first-admission'
      ? await admitFirst(six.verified, log, () => {
          if (context === null) throw new Error('trusted context was not expected');
          return context;
        }, schemas)
      : await replayHistorical(six.verified, log, schemas);
  const expect = e['expect'] as JsonObject;
  if (expect['stage'] === 'complete') {
    if (!outcome.ok) return `expected complete, got admission (${outcome.reason})`;
    const want = bundle.json(String(expect['record'])) as JsonObject;
    const same = JSON.stringify(outcome.record) === JSON.stringify(want);
    return same ? null : 'returned record differs from the expected record';
  }
  if (outcome.ok) return `expected ${String(expect['reason'])}, got complete`;
  if (outcome.code !== expect['wireCode'] || outcome.reason !== expect['reason']) {
    return `expected ${String(expect['reason'])}, got ${outcome.reason}`;
  }
  return null;
}

export async function runAdmission(bundle: Bundle, schemas: SchemaRegistry): Promise<SuiteReport> {
  const report = emptyReport();
  const manifest = bundle.json('admission/manifest.json') as JsonObject;
  const crypto = bundle.json(CRYPTOGRAPHY_MANIFEST) as JsonObject;
  for (const problem of bundle.integrity(manifest)) report.failures.push(`integrity: ${problem}`);
  if (!bundle.conforms('admission/manifest.schema.json', manifest)) {
    report.failures.push('integrity: manifest does not conform to its schema');
  }
  const pinned = (manifest['cryptography'] as JsonObject)['artifactDigest'];
  const actual = sha256ContentHash(canonicalBytesWithout(crypto, 'artifactDigest'));
  if (pinned !== actual || crypto['artifactDigest'] !== pinned) {
    report.failures.push(`integrity: pinned cryptography digest ${String(pinned)} differs from ${actual}`);
  }
  // Record fixtures are judged by our record validation itself; registries by their schema.
  const fixtureManifest = { fixtureSchemas: { registry: (manifest['fixtureSchemas'] as JsonObject)['registry'] } };
  for (const c of manifest['cases'] as JsonObject[]) {
    for (const e of c['evaluations'] as JsonObject[]) {
      let problem: string | null;
      try {
        problem = await runEvaluation(bundle, schemas, fixtureManifest as unknown as JsonObject, e);
      } catch (error) {
        problem = `threw ${(error as Error).message}`;
      }
      record(report, String(e['id']), problem);
    }
  }
  return report;
}
