/**
 * The checks a newly presented Command passes inside its write transaction, after its receipt
 * lookup found nothing (a found receipt is an idempotent retry and skips them): first-admission
 * key validity at the trusted acceptance time, the freshness and clock-skew window, and the
 * Agent's Session Epoch.
 */

import { keyValidAt } from '../protocol/signing/keyRegistry.js';
import { instantFromMillis, parseTimestamp } from '../protocol/timestamp.js';
import type { ReceiptKey } from '../store/sql/receipts.js';
import type { FreshnessWindow } from './settings.js';
import type { EmbeddedVerification, VerifiedCommand } from './verifyCommand.js';
import type { EmbeddedAdmissionRow } from '../store/sql/embeddedAdmissions.js';
import type { Principal } from '../protocol/principal.js';
import { wireError, type WireError } from './wireError.js';

export function receiptKeyOf(command: VerifiedCommand): ReceiptKey {
  const { actor, actionId } = command.envelope;
  return { actorType: actor.type, actorId: actor.id, actionId };
}

/**
 * §6.4 first admission: the key must be valid at the trusted acceptance instant too, so a
 * signer cannot backdate a Command under a key already expired or revoked. §6.4 freshness:
 * `issuedAt` must fall inside the Organization's window around that instant.
 */
export function checkAdmission(command: VerifiedCommand, nowMillis: number, window: FreshnessWindow): WireError | null {
  const refused = (reason: string) => wireError('AUTH_INVALID_SIGNATURE', '', { relatedActionId: command.envelope.actionId, diagnostic: { stage: 'admission', reason } });
  if (!keyValidAt(command.verified.key, instantFromMillis(nowMillis))) return refused('key-not-valid-at-acceptance');
  const issued = parseTimestamp(command.envelope.issuedAt);
  if (issued === null) return refused('issued-at-unparseable');
  const ageSeconds = nowMillis / 1000 - issued.seconds;
  if (ageSeconds > window.maxAgeSeconds) return refused('issued-at-too-old');
  if (-ageSeconds > window.maxFutureSkewSeconds) return refused('issued-at-too-far-ahead');
  return null;
}

/** What a found receipt (the Command's First-Admission Record) binds. */
export interface FoundReceipt {
  readonly signingHash: string;
  readonly keyId: string;
}

/**
 * A Command whose receipt exists: `null` when it is the same Command again (an idempotent retry).
 * Other content under the Action ID collides (§15.1). The same signing bytes re-signed under
 * another key of the same Principal is a record under the same logical key with a different key
 * ID: §6.4 forbids reconciling it, and every admission failure is `AUTH_INVALID_SIGNATURE` on the
 * wire, its reason kept from the caller.
 */
export function checkFoundReceipt(found: FoundReceipt, command: VerifiedCommand): WireError | null {
  const related = { relatedActionId: command.envelope.actionId };
  if (found.signingHash !== command.verified.signingHash) {
    return wireError('ACTION_ID_COLLISION', 'the Action ID was used with other content', related);
  }
  if (found.keyId !== command.verified.keyId) {
    return wireError('AUTH_INVALID_SIGNATURE', '', { ...related, diagnostic: { stage: 'admission', reason: 'record-binding-mismatch' } });
  }
  return null;
}

/** §6.3: an Agent's Command must carry its current Session Epoch. */
export function checkSession(command: VerifiedCommand, epochs: ReadonlyMap<string, number>): WireError | null {
  const { actor, sessionEpoch, actionId } = command.envelope;
  if (actor.type !== 'agent') return null;
  const current = epochs.get(actor.id);
  if (current === undefined) return wireError('AUTH_REQUIRED', 'the Agent has no open session', { relatedActionId: actionId, diagnostic: { stage: 'admission', reason: 'no-open-session' } });
  if (sessionEpoch !== current) {
    const diagnostic = { stage: 'admission' as const, reason: 'session-epoch-fenced' };
    return wireError('AUTH_STALE_SESSION', `Session Epoch ${String(sessionEpoch)} is fenced`, { relatedActionId: actionId, diagnostic });
  }
  return null;
}

/** What the first admission of a Command's embedded document decided. */
export type EmbeddedAdmission = { readonly ok: false; readonly error: WireError } | { readonly ok: true; readonly record?: EmbeddedAdmissionRow };

/**
 * §6.4 first admission of a Signed Document embedded in the Command (an Approval, an Agent Card),
 * at the Command's trusted acceptance time: a found record must bind the same document kind, key
 * and Principal; an absent one is appended only when the key is valid at that time too, so a
 * document is never accepted because its signer backdated it.
 */
export function admitEmbedded(
  command: VerifiedCommand,
  embedded: EmbeddedVerification | undefined,
  found: EmbeddedAdmissionRow | undefined,
  acceptance: { readonly nowMillis: number; readonly now: string; readonly acceptedBy: Principal; readonly admissionRecordId: string },
): EmbeddedAdmission {
  if (embedded === undefined) return { ok: true };
  const refused = (reason: string): EmbeddedAdmission => ({
    ok: false,
    error: wireError('AUTH_INVALID_SIGNATURE', '', { relatedActionId: command.envelope.actionId, diagnostic: { stage: 'admission', reason } }),
  });
  const { principal } = embedded.key;
  if (found !== undefined) {
    const bound = found.documentKind === embedded.document && found.keyId === embedded.keyId && found.principalType === principal.type && found.principalId === principal.id;
    return bound ? { ok: true } : refused('embedded-record-binding-mismatch');
  }
  if (!keyValidAt(embedded.key, instantFromMillis(acceptance.nowMillis))) return refused('embedded-key-not-valid-at-acceptance');
  return {
    ok: true,
    record: {
      signingHash: embedded.signingHash,
      admissionRecordId: acceptance.admissionRecordId,
      documentKind: embedded.document,
      keyId: embedded.keyId,
      principalType: principal.type,
      principalId: principal.id,
      trustedAcceptedAt: acceptance.now,
      acceptedById: acceptance.acceptedBy.id,
      actionId: command.envelope.actionId,
    },
  };
}

/** What the first admission of every embedded document of a Command decided. */
export type EmbeddedAdmissions = { readonly ok: false; readonly error: WireError } | { readonly ok: true; readonly records: EmbeddedAdmissionRow[] };

/**
 * `admitEmbedded` for each of the Command's embedded documents, in payload order: every element of
 * an array member gets its own First-Admission Record, as a single document does (§6.4 binds the
 * record to one document's signing hash), and a refusal names the element's index. An element
 * repeated within the Command is admitted once.
 */
export function admitAllEmbedded(
  command: VerifiedCommand,
  found: (signingHash: string) => EmbeddedAdmissionRow | undefined,
  acceptance: { readonly nowMillis: number; readonly now: string; readonly acceptedBy: Principal; readonly newRecordId: () => string },
): EmbeddedAdmissions {
  const records: EmbeddedAdmissionRow[] = [];
  for (const embedded of command.embedded ?? []) {
    const earlier = found(embedded.signingHash) ?? records.find((r) => r.signingHash === embedded.signingHash);
    const admitted = admitEmbedded(command, embedded, earlier, { ...acceptance, admissionRecordId: acceptance.newRecordId() });
    if (!admitted.ok) {
      const error = embedded.index === undefined ? admitted.error : { ...admitted.error, details: { index: embedded.index } };
      return { ok: false, error };
    }
    if (admitted.record !== undefined) records.push(admitted.record);
  }
  return { ok: true, records };
}
