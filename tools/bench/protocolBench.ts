/**
 * `npm run bench:protocol`: per-stage throughput of the protocol layer on one core for a typical
 * signed ~1 KB `message.post` Command, next to the raw `node:crypto` Ed25519 verify rate and the
 * pure-JS `@noble/ed25519` rate measured in the same run.
 */

import { createHash, randomUUID } from 'node:crypto';
import * as noble from '@noble/ed25519';
import { decodeBase64url } from '#src/protocol/base64url.js';
import { verifyEd25519 } from '#src/protocol/ed25519.js';
import { canonicalBytesWithout } from '#src/protocol/jcs.js';
import { schemaRegistry } from '#src/protocol/schemas/files.js';
import {
  generatePrivateKey,
  publicKeyBase64url,
  signDocument,
} from '#src/protocol/signing/signDocument.js';
import { KeyRegistry } from '#src/protocol/signing/keyRegistry.js';
import { verifySignedDocument } from '#src/protocol/signing/verifySignedDocument.js';
import { parseStrictJson, type JsonObject } from '#src/protocol/strictJson.js';
import { measureRates } from './measure.js';

// noble needs a synchronous SHA-512 to verify; give it node's.
noble.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

const agentId = 'urn:missionweave:agent:bench-writer';
const keyId = 'urn:missionweave:key:bench-writer-1';
const privateKey = generatePrivateKey();
const publicKey = publicKeyBase64url(privateKey);
const registry = KeyRegistry.fromEvidence({
  organizationId: 'urn:missionweave:organization:bench',
  bindings: [
    {
      keyId,
      principal: { type: 'agent', id: agentId },
      algorithm: 'Ed25519',
      publicKey,
      validFrom: '2020-01-01T00:00:00Z',
      validityHistory: [],
    },
  ],
});

const issuedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const command = signDocument(
  'command',
  {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: { type: 'agent', id: agentId },
    sessionEpoch: 3,
    membershipEpoch: 2,
    groupId: 'urn:missionweave:group:bench',
    kind: 'message.post',
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt,
    payload: {
      messageId: `urn:uuid:${randomUUID()}`,
      conversationId: 'urn:missionweave:conversation:bench-main',
      content: 'Status: the integration tests pass on the release branch. '.repeat(12).trim(),
      mentions: [{ type: 'agent', id: 'urn:missionweave:agent:bench-reader' }],
    },
  },
  { keyId, privateKey },
);
const bytes = Buffer.from(JSON.stringify(command), 'utf8');
const schemas = schemaRegistry();
const parsed = parseStrictJson(bytes) as JsonObject;
const signingBytes = canonicalBytesWithout(parsed, 'signature');
const signature = decodeBase64url(command.signature.value) as Buffer;
const key = registry.resolve(keyId);
if (key === undefined) throw new Error('bench key missing');
const rawKey = decodeBase64url(publicKey) as Buffer;

const check = verifySignedDocument('command', bytes, registry, schemas);
if (!check.ok) throw new Error(`bench command does not verify: ${check.failure.reason}`);

const rates = measureRates({
  'strict parse': () => parseStrictJson(bytes),
  'schema validation (envelope + payload)': () =>
    schemas.validateObject('command', parsed).ok && schemas.validatePayload('message.post', parsed['payload']),
  'JCS signing bytes': () => canonicalBytesWithout(parsed, 'signature'),
  'complete six-stage verification': () => verifySignedDocument('command', bytes, registry, schemas),
  'raw node:crypto Ed25519 verify': () => verifyEd25519(key.keyObject, signingBytes, signature),
});
const [nobleRate] = measureRates({ '@noble/ed25519 verify': () => noble.verify(signature, signingBytes, rawKey) }, 3, 300);

const raw = rates.find((r) => r.name.startsWith('raw'))?.perSecond ?? 1;
const complete = rates.find((r) => r.name.startsWith('complete'))?.perSecond ?? 0;
process.stdout.write(`signed message.post Command: ${bytes.length} bytes; one core (main thread)\n\n`);
for (const { name, perSecond } of [...rates, ...(nobleRate ? [nobleRate] : [])]) {
  process.stdout.write(`${name.padEnd(42)} ${Math.round(perSecond).toString().padStart(9)} /s\n`);
}
process.stdout.write(`\ncomplete verification / raw verify = ${((complete / raw) * 100).toFixed(1)} % (target >= 60 %)\n`);
if (process.argv.includes('--json')) {
  process.stdout.write(
    `${JSON.stringify(Object.fromEntries([...rates, ...(nobleRate ? [nobleRate] : [])].map((r) => [r.name, Math.round(r.perSecond)])))}\n`,
  );
}
