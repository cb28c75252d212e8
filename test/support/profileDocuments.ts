/**
 * Extension Profile documents (§18) for the tests: the tally profile's (test/support/tallyProfile.ts)
 * approval, signed by whoever the test says approves it.
 */

import { signDocument } from '../../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { registerProfile, type ProfileRegistration } from '../../src/app/extensionProfiles.js';
import type { Actor, Harness } from './harness.js';
import { TALLY_URI } from './tallyProfile.js';

/** The tally profile's document at `version`, approved by `approver` at `approvedAt`. */
export function tallyProfileDocument(approver: Actor, approvedAt: string, overrides: JsonObject = {}): JsonObject {
  const unsigned = {
    profileUri: TALLY_URI,
    name: 'Tally (test profile)',
    version: '1.0.0',
    schemaUri: 'https://missionweave.dev/schemas/0.1/profiles/ext.missionweave.tally.add.schema.json',
    schemaHash: `sha256:${'a'.repeat(64)}`,
    requiredCapabilities: [],
    critical: true,
    commandKinds: ['ext.missionweave.tally.add'],
    eventKinds: ['ext.missionweave.tally.tallied'],
    overridesCoreInvariants: false,
    approvedBy: { ...approver.principal },
    approvedAt,
    ...overrides,
  };
  return signDocument('extension-profile', unsigned, approver.key) as unknown as JsonObject;
}

/** Signs the tally profile's document (with `overrides`) as `approver` and registers it through the app. */
export async function registerTallyDocument(h: Harness, approver: Actor, overrides: JsonObject = {}): Promise<ProfileRegistration> {
  const document = tallyProfileDocument(approver, h.now(), overrides);
  return registerProfile({ pool: h.pool, authority: h.authority }, Buffer.from(JSON.stringify(document), 'utf8'));
}
