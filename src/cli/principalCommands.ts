/**
 * `missionweave agent add <handle> --dir DIR [--capability id@version …] [--owner HUMAN]` and
 * `missionweave human add <name> --dir DIR`: a key for a new Principal, an Agent Card signed by
 * the Agent Registry and registered through the Command pipeline (agents), or a Registry
 * binding (humans). Each prints `{"type","id","keyId","privateKeyFile"}`; adding an existing
 * handle prints the existing Principal.
 */

import { randomUUID } from 'node:crypto';
import { issueAgentCard, signCommand, timestampOf } from '../app/issueDocuments.js';
import { generatePrivateKey, publicKeyBase64url } from '../protocol/signing/signDocument.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { checkHandle, Home, type PrincipalRecord } from './home.js';

function printed(home: Home, record: PrincipalRecord): number {
  const { type, id, keyId } = record;
  process.stdout.write(`${JSON.stringify({ type, id, keyId, privateKeyFile: home.path(record.privateKeyFile) })}\n`);
  return 0;
}

function newKey(home: Home, handle: string) {
  const privateKey = generatePrivateKey();
  const privateKeyFile = `keys/${handle}.pem`;
  home.writePrivateKey(privateKeyFile, privateKey);
  const now = Date.now();
  return { privateKey, privateKeyFile, keyId: `urn:uuid:${randomUUID()}`, publicKey: publicKeyBase64url(privateKey), validFrom: timestampOf(Math.floor(now / 1000) * 1000).replace('.000Z', 'Z') };
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
  const args = parseArgs(argv, { dir: 'value' });
  const handle = checkHandle(args.positionals[0]);
  if (home.exists() && home.principals().some((p) => p.handle === handle)) return printed(home, home.principal(handle));
  home.config();
  const key = newKey(home, handle);
  const id = `urn:missionweave:human:${handle}`;
  const running = await openAuthority(home);
  try {
    await running.authority.enrolKey({ keyId: key.keyId, principal: { type: 'human', id }, algorithm: 'Ed25519', publicKey: key.publicKey, validFrom: key.validFrom, validityHistory: [] });
  } finally {
    await running.close();
  }
  const record: PrincipalRecord = { handle, type: 'human', id, keyId: key.keyId, publicKey: key.publicKey, privateKeyFile: key.privateKeyFile };
  home.writeJson(home.principalFile(handle), record);
  return printed(home, record);
}

export function principalCommand(type: 'agent' | 'human') {
  return (argv: readonly string[]): Promise<number> => {
    const [verb, ...rest] = argv;
    if (verb !== 'add') throw new UsageError(`usage: missionweave ${type} add <handle> --dir DIR`);
    const dir = parseArgs(rest, { dir: 'value', capability: 'list', owner: 'value', 'max-concurrency': 'value' });
    const home = new Home(stringOption(dir, 'dir') ?? '.missionweave');
    return type === 'agent' ? addAgent(home, rest) : addHuman(home, rest);
  };
}
