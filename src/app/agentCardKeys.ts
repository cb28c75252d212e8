/**
 * What registering an Agent Card does to the Registry: each declared key either is new (a new
 * immutable binding for the Agent) or repeats an existing binding exactly (same Principal,
 * algorithm, key and `validFrom`), possibly adding an earlier `validUntil` or `revokedAt` as
 * a new validity-status record. Anything else — a rebinding, an alias, a cleared or extended
 * boundary — is refused with the Registry's reason.
 */

import { compareInstants, parseTimestamp } from '../protocol/timestamp.js';
import { KeyRegistry, RegistryProblem, type KeyBindingEvidence, type ValidityStatusRecord } from '../protocol/signing/keyRegistry.js';
import type { JsonObject } from '../protocol/strictJson.js';

export interface CardKeyChanges {
  readonly registry: KeyRegistry;
  readonly bindings: KeyBindingEvidence[];
  readonly records: { keyId: string; record: ValidityStatusRecord }[];
}

function boundaryChange(kind: 'validUntil' | 'revokedAt', declared: unknown, current: string | undefined): 'same' | 'earlier' | 'refused' {
  if (declared === undefined) return current === undefined ? 'same' : 'refused';
  if (current === undefined) return 'earlier';
  const next = parseTimestamp(String(declared));
  const now = parseTimestamp(current);
  if (next === null || now === null) throw new RegistryProblem('registry-timestamp-invalid', `${kind} is not a timestamp`);
  const order = compareInstants(next, now);
  return order === 0 ? 'same' : order < 0 ? 'earlier' : 'refused';
}

/** Derives and validates the Registry changes of a card; throws `RegistryProblem`. */
export function applyCardKeys(card: JsonObject, registry: KeyRegistry, now: string): CardKeyChanges {
  const principal = { type: 'agent' as const, id: String(card['agentId']) };
  const bindings: KeyBindingEvidence[] = [];
  const records: { keyId: string; record: ValidityStatusRecord }[] = [];
  let next = registry;
  for (const key of (card['publicKeys'] ?? []) as JsonObject[]) {
    const keyId = String(key['keyId']);
    const existing = next.resolve(keyId);
    if (existing === undefined) {
      const history: ValidityStatusRecord[] = [];
      if (key['validUntil'] !== undefined || key['revokedAt'] !== undefined) {
        history.push({
          sequence: 1,
          recordedAt: now,
          ...(key['validUntil'] === undefined ? {} : { validUntil: String(key['validUntil']) }),
          ...(key['revokedAt'] === undefined ? {} : { revokedAt: String(key['revokedAt']) }),
        });
      }
      const binding: KeyBindingEvidence = {
        keyId,
        principal,
        algorithm: String(key['algorithm']),
        publicKey: String(key['publicKey']),
        validFrom: String(key['validFrom']),
        validityHistory: history,
      };
      next = next.extend([binding]);
      bindings.push(binding);
      continue;
    }
    const same =
      existing.principal.type === principal.type &&
      existing.principal.id === principal.id &&
      existing.binding.algorithm === key['algorithm'] &&
      existing.binding.publicKey === key['publicKey'] &&
      existing.binding.validFrom === key['validFrom'];
    if (!same) throw new RegistryProblem('key-id-reused', `${keyId} is already bound differently`);
    const effective = (field: 'validUntil' | 'revokedAt') =>
      [...existing.binding.validityHistory].reverse().find((r) => r[field] !== undefined)?.[field];
    const until = boundaryChange('validUntil', key['validUntil'], effective('validUntil'));
    const revoked = boundaryChange('revokedAt', key['revokedAt'], effective('revokedAt'));
    if (until === 'refused' || revoked === 'refused') {
      throw new RegistryProblem('validity-extended', `${keyId}: a card may not clear or extend validity`);
    }
    if (until === 'earlier' || revoked === 'earlier') {
      const change = {
        recordedAt: now,
        ...(until === 'earlier' ? { validUntil: String(key['validUntil']) } : {}),
        ...(revoked === 'earlier' ? { revokedAt: String(key['revokedAt']) } : {}),
      };
      next = next.recordValidity(keyId, change);
      const history = next.resolve(keyId)?.binding.validityHistory ?? [];
      records.push({ keyId, record: history[history.length - 1] as ValidityStatusRecord });
    }
  }
  return { registry: next, bindings, records };
}
