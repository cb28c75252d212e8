/**
 * A Group Authority on this test file's own database, with the Organization's services,
 * Agents (registered through signed Agent Card Commands and given a session) and humans
 * (Registry bindings), plus a signer per actor that fills in the current epochs.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { GroupAuthority, type Submission } from '../../src/app/groupAuthority.js';
import { issueAgentCard, signCommand, timestampOf, type CommandRequest } from '../../src/app/issueDocuments.js';
import { DEFAULT_FRESHNESS } from '../../src/app/limits.js';
import type { AuthoritySettings, Clock } from '../../src/app/settings.js';
import type { AnyExtensionProfile } from '../../src/domain/kinds/profile.js';
import type { Principal } from '../../src/protocol/principal.js';
import { generatePrivateKey, publicKeyBase64url, type SigningKey } from '../../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { Pool } from '../../src/store/pool.js';
import { buildKindRegistry } from '../../src/domain/coreModules.js';

export const ORGANIZATION_ID = 'urn:missionweave:organization:test';
const registryService: Principal = { type: 'service', id: 'urn:missionweave:service:registry' };
const authorityService: Principal = { type: 'service', id: 'urn:missionweave:service:group-authority' };

export interface Actor {
  readonly principal: Principal;
  readonly key: SigningKey;
  sessionEpoch?: number;
}

function newKey(): { key: SigningKey; publicKey: string } {
  const privateKey = generatePrivateKey();
  return { key: { keyId: `urn:uuid:${randomUUID()}`, privateKey }, publicKey: publicKeyBase64url(privateKey) };
}

/** The real time plus an offset tests can move (so long tests stay inside freshness windows). */
export class TestClock implements Clock {
  private offset = 0;
  get millis(): number {
    return Date.now() + this.offset;
  }
  nowMillis(): number {
    return this.millis;
  }
  advance(seconds: number): void {
    this.offset += seconds * 1000;
  }
}

export class Harness {
  readonly registry: Actor;
  readonly authorityActor: Actor;

  private constructor(
    readonly authority: GroupAuthority,
    readonly pool: Pool,
    readonly clock: TestClock,
    readonly settings: AuthoritySettings,
    registryKey: SigningKey,
  ) {
    this.registry = { principal: registryService, key: registryKey };
    this.authorityActor = { principal: authorityService, key: settings.authorityKey };
  }

  static async start(pool: Pool, overrides: Partial<AuthoritySettings> = {}, clock = new TestClock(), profiles: readonly AnyExtensionProfile[] = []): Promise<Harness> {
    const registry = newKey();
    const authority = newKey();
    const settings: AuthoritySettings = {
      services: { organizationId: ORGANIZATION_ID, registry: registryService, authority: authorityService },
      authorityKey: authority.key,
      registryKey: registry.key,
      freshness: DEFAULT_FRESHNESS,
      maxBatch: 64,
      writerConcurrency: 4,
      ...overrides,
    };
    const instance = await GroupAuthority.start({ pool, settings, clock, kinds: buildKindRegistry(profiles), logger: pino({ level: process.env['MW_LOG_LEVEL'] ?? 'silent' }) });
    const validFrom = timestampOf(clock.millis - 60_000);
    for (const [principal, material] of [[registryService, registry], [authorityService, authority]] as const) {
      if (instance.registry.current.registry.resolve(material.key.keyId) === undefined) {
        await instance.enrolKey({ keyId: material.key.keyId, principal, algorithm: 'Ed25519', publicKey: material.publicKey, validFrom, validityHistory: [] });
      }
    }
    return new Harness(instance, pool, clock, settings, registry.key);
  }

  /** A second Group Authority on the same database (as another process would be). */
  async peer(pool: Pool): Promise<GroupAuthority> {
    return GroupAuthority.start({ pool, settings: this.settings, clock: this.clock, logger: this.authority.logger, kinds: this.authority.kinds });
  }

  now(): string {
    return timestampOf(this.clock.millis);
  }

  /** Registers an Agent (signed card through the pipeline) and opens its first session. */
  async agent(handle: string, capabilities = ['code.review@1.0.0']): Promise<Actor> {
    const { key, publicKey } = newKey();
    const principal: Principal = { type: 'agent', id: `urn:missionweave:agent:${handle}-${randomUUID().slice(0, 8)}` };
    const card = issueAgentCard(
      {
        agentId: principal.id,
        organizationId: ORGANIZATION_ID,
        cardVersion: 1,
        displayName: handle,
        owner: registryService,
        endpoint: 'wss://127.0.0.1:8443',
        keys: [{ keyId: key.keyId, publicKey, validFrom: timestampOf(this.clock.millis - 60_000) }],
        capabilities,
        maxConcurrency: 2,
        issuedAt: this.now(),
      },
      this.registry.key,
    );
    await this.expectOk(this.send(this.registry, 'ext.missionweaveprotocol.registry.agent_card_register', { card }));
    const actor: Actor = { principal, key };
    await this.openSession(actor);
    return actor;
  }

  async openSession(actor: Actor): Promise<number> {
    const outcome = await this.expectOk(this.send(this.authorityActor, 'ext.missionweaveprotocol.identity.session_open', { agentId: actor.principal.id }));
    const event = JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: { sessionEpoch: number } };
    actor.sessionEpoch = event.payload.sessionEpoch;
    return actor.sessionEpoch;
  }

  async human(handle: string): Promise<Actor> {
    const { key, publicKey } = newKey();
    const principal: Principal = { type: 'human', id: `urn:missionweave:human:${handle}-${randomUUID().slice(0, 8)}` };
    await this.authority.enrolKey({ keyId: key.keyId, principal, algorithm: 'Ed25519', publicKey, validFrom: timestampOf(this.clock.millis - 60_000), validityHistory: [] });
    return { principal, key };
  }

  /** Signs a Command for an actor; agents get their current Session Epoch unless given. */
  sign(actor: Actor, kind: string, payload: JsonObject, extra: Partial<CommandRequest> = {}): JsonObject {
    return signCommand(
      {
        actor: actor.principal,
        kind,
        payload,
        issuedAt: this.now(),
        ...(actor.principal.type === 'agent' && actor.sessionEpoch !== undefined ? { sessionEpoch: actor.sessionEpoch } : {}),
        ...extra,
      },
      actor.key,
    );
  }

  send(actor: Actor, kind: string, payload: JsonObject, extra: Partial<CommandRequest> = {}): Promise<Submission> {
    return this.authority.submit(this.sign(actor, kind, payload, extra));
  }

  async expectOk(pending: Promise<Submission>): Promise<Extract<Submission, { ok: true }>> {
    const outcome = await pending;
    if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome;
  }
}
