/**
 * The PoC's Organization, set up before the node starts (as the fault suite does): an operator
 * directory on the embedded PostgreSQL, the human MissionOwner (an enrolled Ed25519 key: she
 * signs in over HTTPS later), the Agents with Registry-signed Agent Cards, and the two root
 * Missions with their Workers as members. Each Agent gets a home folder of its own, where its
 * process keeps its SQLite projection.
 */

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueAgentCard, signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { generatePrivateKey, publicKeyBase64url } from '#src/protocol/signing/signDocument.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { BenchWorld } from '../bench/benchWorld.js';
import { CAPABILITY } from './pocContracts.js';
import type { PocAgent } from './pocMessages.js';

export const AGENT_NAMES = ['coord-a', 'coord-a2', 'coord-b', 'coord-sec', 'w-shared', 'w-a', 'w-b'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export interface PocMission {
  readonly name: string;
  readonly missionId: string;
  readonly groupId: string;
}

export interface PocWorld {
  readonly agents: Readonly<Record<AgentName, PocAgent>>;
  readonly owner: BenchWorld['owner'];
  readonly missions: { readonly A: PocMission; readonly B: PocMission };
  readonly ca: string;
  readonly orgDir: string;
}

async function submit(world: BenchWorld, command: JsonObject): Promise<void> {
  const outcome = await world.authority.submit(Buffer.from(JSON.stringify(command)));
  if (!outcome.ok) throw new Error(`${String(command['kind'])} refused: ${outcome.error.code} ${outcome.error.message}`);
}

async function registerAgent(world: BenchWorld, name: AgentName): Promise<PocAgent> {
  const config = world.home.config();
  const registry = { keyId: config.services.registry.keyId, privateKey: world.home.privateKey(config.services.registry.privateKeyFile) };
  const privateKey = generatePrivateKey();
  const agent: PocAgent = { name, id: `urn:missionweave:agent:poc-${name}-${randomUUID().slice(0, 8)}`, keyId: `urn:uuid:${randomUUID()}`, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
  const issuedAt = timestampOf(Date.now());
  const card = issueAgentCard({
    agentId: agent.id, organizationId: config.organizationId, cardVersion: 1, displayName: `PoC ${name}`, owner: { type: 'service', id: config.services.registry.id }, endpoint: 'wss://127.0.0.1:8443',
    keys: [{ keyId: agent.keyId, publicKey: publicKeyBase64url(privateKey), validFrom: timestampOf(Date.now() - 60_000) }],
    capabilities: ['mission.participation@1.0.0', `${CAPABILITY.id}@${CAPABILITY.version}`], maxConcurrency: 4, issuedAt,
  }, registry);
  await submit(world, signCommand({ actor: { type: 'service', id: config.services.registry.id }, kind: 'ext.missionweaveprotocol.registry.agent_card_register', payload: { card }, issuedAt }, registry));
  return agent;
}

async function createMission(world: BenchWorld, name: string, coordinator: PocAgent, members: readonly PocAgent[]): Promise<PocMission> {
  const suffix = randomUUID();
  const mission = { name, missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}` };
  const payload: JsonObject = {
    missionId: mission.missionId, groupId: mission.groupId, mainConversationId: `urn:missionweave:conversation:${suffix}`, coordinatorId: coordinator.id,
    title: `PoC Mission ${name}`, objective: `Deliver software increment ${name} through analysis, implementation, testing, review and integration.`,
    definitionOfDone: [{ criterionId: 'shipped', description: 'Every stage verified and the increment approved.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 500, toolCallLimit: 100_000 }, deadline: timestampOf(Date.now() + 7 * 86_400_000), coordinatorLeaseSeconds: 3_600,
  };
  await submit(world, signCommand({ actor: world.owner.principal, kind: 'mission.create', payload, groupId: mission.groupId, issuedAt: timestampOf(Date.now()) }, world.owner.key));
  for (const member of members) {
    await submit(world, signCommand({ actor: world.owner.principal, kind: 'membership.change', payload: { principal: { type: 'agent', id: member.id }, roles: ['worker'], visibilityAfterSequence: 0 }, groupId: mission.groupId, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, world.owner.key));
  }
  return mission;
}

/** The Organization, its Agents (each with a home under `root/agents/<name>`) and Missions A and B. */
export async function setUpPocWorld(root: string, databaseUrl: string): Promise<PocWorld> {
  const orgDir = join(root, 'org');
  const world = await BenchWorld.create(orgDir, databaseUrl);
  try {
    const agents = {} as Record<AgentName, PocAgent>;
    for (const name of AGENT_NAMES) {
      agents[name] = await registerAgent(world, name);
      mkdirSync(join(root, 'agents', name), { recursive: true });
    }
    const A = await createMission(world, 'A', agents['coord-a'], [agents['w-shared'], agents['w-a']]);
    const B = await createMission(world, 'B', agents['coord-b'], [agents['w-shared'], agents['w-b']]);
    return { agents, owner: world.owner, missions: { A, B }, ca: readFileSync(world.home.path('tls', 'cert.pem'), 'utf8'), orgDir };
  } finally {
    await world.close();
  }
}
