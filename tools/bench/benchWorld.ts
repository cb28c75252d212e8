/**
 * The world a benchmark runs in: an operator directory on a real PostgreSQL, an in-process
 * Group Authority for setup (registering Agents through signed Agent Card Commands, creating
 * Missions, adding Members), and the credentials handed to load processes.
 */

import { randomUUID, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { GroupAuthority } from '#src/app/groupAuthority.js';
import { issueAgentCard, signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { Home } from '#src/home/home.js';
import { ensureHome } from '#src/cli/initCommand.js';
import type { Principal } from '#src/protocol/principal.js';
import { generatePrivateKey, publicKeyBase64url, type SigningKey } from '#src/protocol/signing/signDocument.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { openAuthority, type RunningAuthority } from '#src/server.js';

export interface BenchAgent {
  readonly id: string;
  readonly keyId: string;
  readonly privateKeyPem: string;
}

export interface BenchMission {
  readonly missionId: string;
  readonly groupId: string;
  readonly conversationId: string;
}

export class BenchWorld {
  private constructor(
    readonly home: Home,
    readonly databaseUrl: string,
    readonly running: RunningAuthority,
    readonly owner: { principal: Principal; key: SigningKey },
  ) {}

  static async create(directory: string, databaseUrl: string): Promise<BenchWorld> {
    const home = new Home(directory);
    // The folder names its database (not DATABASE_URL, which would outlive this world in the process).
    await ensureHome(home, { host: '127.0.0.1', port: 0, databaseUrl });
    const running = await openAuthority(home, { logger: pino({ level: 'warn' }), poolSize: 8, settings: { cryptoWorkers: 1, maxBatch: 512 } });
    const key = generatePrivateKey();
    const owner = { principal: { type: 'human' as const, id: `urn:missionweave:human:bench-${randomUUID()}` }, key: { keyId: `urn:uuid:${randomUUID()}`, privateKey: key } };
    await running.authority.enrolKey({ keyId: owner.key.keyId, principal: owner.principal, algorithm: 'Ed25519', publicKey: publicKeyBase64url(key), validFrom: timestampOf(Date.now() - 60_000), validityHistory: [] });
    return new BenchWorld(home, databaseUrl, running, owner);
  }

  /** The registry service's signing key, read once (parsing its PEM file per card cost ~0.6 ms). */
  private get registryKey(): SigningKey {
    if (this.cachedRegistryKey === undefined) {
      const config = this.home.config();
      this.cachedRegistryKey = { keyId: config.services.registry.keyId, privateKey: this.home.privateKey(config.services.registry.privateKeyFile) };
    }
    return this.cachedRegistryKey;
  }

  private cachedRegistryKey: SigningKey | undefined;

  get authority(): GroupAuthority {
    return this.running.authority;
  }

  private async submit(command: JsonObject): Promise<JsonObject> {
    const outcome = await this.authority.submit(Buffer.from(JSON.stringify(command)));
    if (!outcome.ok) throw new Error(`${String(command['kind'])} refused: ${outcome.error.code} ${outcome.error.message}`);
    return JSON.parse(outcome.events[0]?.text ?? '{}') as JsonObject;
  }

  /** A fresh Agent's card signed by the registry service, and the Command that registers it. */
  registration(name: string, validFrom: string): { agent: BenchAgent; command: JsonObject } {
    const config = this.home.config();
    const registry = this.registryKey;
    const privateKey: KeyObject = generatePrivateKey();
    const agent: BenchAgent = { id: `urn:missionweave:agent:${name}-${randomUUID().slice(0, 8)}`, keyId: `urn:uuid:${randomUUID()}`, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
    const issuedAt = timestampOf(Date.now());
    const card = issueAgentCard({ agentId: agent.id, organizationId: config.organizationId, cardVersion: 1, displayName: agent.id, owner: { type: 'service', id: config.services.registry.id }, endpoint: 'wss://127.0.0.1:8443', keys: [{ keyId: agent.keyId, publicKey: publicKeyBase64url(privateKey), validFrom }], capabilities: ['mission.participation@1.0.0'], maxConcurrency: 4, issuedAt }, registry);
    return { agent, command: signCommand({ actor: { type: 'service', id: config.services.registry.id }, kind: 'ext.missionweaveprotocol.registry.agent_card_register', payload: { card }, issuedAt }, registry) };
  }

  /** Registers `count` Agents with signed Agent Cards through the Command path, many at a time. */
  async agents(prefix: string, count: number): Promise<BenchAgent[]> {
    const made: BenchAgent[] = [];
    const validFrom = timestampOf(Date.now() - 60_000);
    for (let start = 0; start < count; start += 500) {
      const batch = Array.from({ length: Math.min(500, count - start) }, (_, i) => this.registration(`${prefix}-${start + i}`, validFrom));
      made.push(...batch.map((r) => r.agent));
      await Promise.all(batch.map((r) => this.submit(r.command)));
    }
    return made;
  }

  /** A Mission coordinated by `coordinator`, with these Agents as workers seeing everything. */
  async mission(coordinator: BenchAgent, members: readonly BenchAgent[]): Promise<BenchMission> {
    const suffix = randomUUID();
    const missionId = `urn:missionweave:mission:${suffix}`;
    const groupId = `urn:missionweave:group:${suffix}`;
    const conversationId = `urn:missionweave:conversation:${suffix}`;
    const payload: JsonObject = {
      missionId, groupId, mainConversationId: conversationId, coordinatorId: coordinator.id,
      title: 'Benchmark', objective: 'Measure the Group Authority.',
      definitionOfDone: [{ criterionId: 'measured', description: 'Figures printed.', evidenceRequired: ['deterministic_test'] }],
      budget: { toolCallLimit: 1_000_000 }, deadline: timestampOf(Date.now() + 86_400_000),
    };
    await this.submit(signCommand({ actor: this.owner.principal, kind: 'mission.create', payload, groupId, issuedAt: timestampOf(Date.now()) }, this.owner.key));
    for (let start = 0; start < members.length; start += 200) {
      await Promise.all(members.slice(start, start + 200).filter((m) => m.id !== coordinator.id).map((member) =>
        this.submit(signCommand({ actor: this.owner.principal, kind: 'membership.change', payload: { principal: { type: 'agent', id: member.id }, roles: ['worker'], visibilityAfterSequence: 0 }, groupId, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, this.owner.key)),
      ));
    }
    return { missionId, groupId, conversationId };
  }

  /** Posts `count` Messages as the human owner (used to fill a Group before replay). */
  async fill(mission: BenchMission, count: number, content: string): Promise<void> {
    const window = 400;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        next++;
        await this.submit(signCommand({ actor: this.owner.principal, kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.conversationId, content }, groupId: mission.groupId, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, this.owner.key));
      }
    };
    await Promise.all(Array.from({ length: window }, worker));
  }

  /** Writes credentials for a load process. */
  credentials(file: string, agents: readonly BenchAgent[]): string {
    const path = join(this.home.directory, file);
    writeFileSync(path, JSON.stringify(agents), { mode: 0o600 });
    return path;
  }

  async close(): Promise<void> {
    await this.authority.close();
    await this.running.close();
  }
}
