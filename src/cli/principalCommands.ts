/**
 * `missionweave agent add <handle> --dir DIR [--capability id@version …] [--owner HUMAN]` and
 * `missionweave human add <name> --dir DIR [--public-key FILE|KEY]`: a key for a new Principal, an
 * Agent Card signed by the Agent Registry and registered through the Command pipeline (agents),
 * or a Registry binding (humans). Each prints `{"type","id","keyId","privateKeyFile"}`; adding an
 * existing handle prints the existing Principal. `--public-key` enrols a key made elsewhere — in
 * the browser console, whose private key never leaves it (docs/human-api.md) — given as a
 * base64url raw Ed25519 key or a file holding one or a PEM public key; `privateKeyFile` is then null.
 */

import { createPublicKey, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { issueAgentCard, signCommand, timestampOf } from '../app/issueDocuments.js';
import { decodeBase64url } from '../protocol/base64url.js';
import { classifyPoint } from '../protocol/ed25519.js';
import { generatePrivateKey, publicKeyBase64url } from '../protocol/signing/signDocument.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { checkHandle, Home, type PrincipalRecord } from '../home/home.js';

function printed(home: Home, record: PrincipalRecord): number {
  const { type, id, keyId } = record;
  const privateKeyFile = record.privateKeyFile === undefined ? null : home.path(record.privateKeyFile);
  process.stdout.write(`${JSON.stringify({ type, id, keyId, privateKeyFile })}\n`);
  return 0;
}

/** Whole seconds: a binding's `validFrom` as the Registry writes it. */
function validFromNow(): string {
  return timestampOf(Math.floor(Date.now() / 1000) * 1000).replace('.000Z', 'Z');
}

function newKey(home: Home, handle: string) {
  const privateKey = generatePrivateKey();
  const privateKeyFile = `keys/${handle}.pem`;
  home.writePrivateKey(privateKeyFile, privateKey);
  return { privateKey, privateKeyFile, keyId: `urn:uuid:${randomUUID()}`, publicKey: publicKeyBase64url(privateKey), validFrom: validFromNow() };
}

/**
 * The base64url raw Ed25519 public key `--public-key` names: the value itself, or a file holding
 * one (as a browser exports it) or a PEM `PUBLIC KEY`. A non-canonical or small-order point is
 * refused here, as the Registry would refuse it (§6.4).
 */
function givenPublicKey(value: string): string {
  let text = value.trim();
  if (existsSync(value)) text = readFileSync(value, 'utf8').trim();
  if (text.startsWith('-----BEGIN PUBLIC KEY-----')) {
    const jwk = createPublicKey(text).export({ format: 'jwk' });
    if (jwk.crv !== 'Ed25519' || jwk.x === undefined) throw new UsageError('--public-key: the PEM key is not an Ed25519 public key');
    text = jwk.x;
  }
  const raw = decodeBase64url(text);
  if (raw === null || raw.length !== 32) throw new UsageError('--public-key: expected a base64url raw Ed25519 public key (32 bytes), or a file holding one or a PEM public key');
  const rejection = classifyPoint(raw, false);
  if (rejection !== null) throw new UsageError(`--public-key: not a usable Ed25519 public key (${rejection})`);
  return text;
}

function parseCapability(value: string): string {
  if (!/^[a-z0-9]+(?:[.-][a-z0-9]+)+@(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.test(value)) {
    throw new UsageError(`--capability ${value}: expected id@major.minor.patch, e.g. code.review@1.0.0`);
  }
  return value;
}

async function addAgent(home: Home, argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', capability: 'list', owner: 'value', 'max-concurrency': 'value' });
  const handle = checkHandle(args.positionals[0]);
  if (home.exists() && home.principals().some((p) => p.handle === handle)) return printed(home, home.principal(handle));
  const config = home.config();
  const capabilities = (args.lists.get('capability') ?? ['mission.participation@1.0.0']).map(parseCapability);
  const ownerHandle = stringOption(args, 'owner');
  const owner = ownerHandle === undefined ? { type: 'service' as const, id: config.services.registry.id } : { type: 'human' as const, id: home.principal(ownerHandle).id };
  const key = newKey(home, handle);
  const agentId = `urn:missionweave:agent:${handle}`;
  const registryKey = { keyId: config.services.registry.keyId, privateKey: home.privateKey(config.services.registry.privateKeyFile) };
  const issuedAt = timestampOf(Date.now());
  const card = issueAgentCard(
    {
      agentId,
      organizationId: config.organizationId,
      cardVersion: 1,
      displayName: handle,
      owner,
      endpoint: `wss://${config.server.host}:${config.server.port}`,
      keys: [{ keyId: key.keyId, publicKey: key.publicKey, validFrom: key.validFrom }],
      capabilities,
      maxConcurrency: Number(stringOption(args, 'max-concurrency') ?? '1'),
      issuedAt,
    },
    registryKey,
  );
  const running = await openAuthority(home);
  try {
    const command = signCommand({ actor: { type: 'service', id: config.services.registry.id }, kind: 'ext.missionweaveprotocol.registry.agent_card_register', payload: { card }, issuedAt }, registryKey);
    const outcome = await running.authority.submit(command);
    if (!outcome.ok) throw new Error(`registration refused: ${outcome.error.code} ${outcome.error.message}`);
  } finally {
    await running.close();
  }
  const cardFile = `cards/${handle}.json`;
  home.writeJson(cardFile, card);
  const record: PrincipalRecord = { handle, type: 'agent', id: agentId, keyId: key.keyId, publicKey: key.publicKey, privateKeyFile: key.privateKeyFile, cardFile };
  home.writeJson(home.principalFile(handle), record);
  return printed(home, record);
}

async function addHuman(home: Home, argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', 'public-key': 'value' });
  const handle = checkHandle(args.positionals[0]);
  if (home.exists() && home.principals().some((p) => p.handle === handle)) return printed(home, home.principal(handle));
  home.config();
  const given = stringOption(args, 'public-key');
  const key = given === undefined ? newKey(home, handle) : { keyId: `urn:uuid:${randomUUID()}`, publicKey: givenPublicKey(given), validFrom: validFromNow(), privateKeyFile: undefined };
  const id = `urn:missionweave:human:${handle}`;
  const running = await openAuthority(home);
  try {
    await running.authority.enrolKey({ keyId: key.keyId, principal: { type: 'human', id }, algorithm: 'Ed25519', publicKey: key.publicKey, validFrom: key.validFrom, validityHistory: [] });
  } finally {
    await running.close();
  }
  const record: PrincipalRecord = { handle, type: 'human', id, keyId: key.keyId, publicKey: key.publicKey, ...(key.privateKeyFile === undefined ? {} : { privateKeyFile: key.privateKeyFile }) };
  home.writeJson(home.principalFile(handle), record);
  return printed(home, record);
}

export function principalCommand(type: 'agent' | 'human') {
  return (argv: readonly string[]): Promise<number> => {
    const [verb, ...rest] = argv;
    if (verb !== 'add') throw new UsageError(`usage: missionweave ${type} add <handle> --dir DIR`);
    const dir = parseArgs(rest, { dir: 'value', capability: 'list', owner: 'value', 'max-concurrency': 'value', 'public-key': 'value' });
    const home = new Home(stringOption(dir, 'dir') ?? '.missionweave');
    return type === 'agent' ? addAgent(home, rest) : addHuman(home, rest);
  };
}
