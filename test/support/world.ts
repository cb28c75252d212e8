/**
 * One call for the setup every pipeline test retyped: a database of the file's own, a Group
 * Authority on it, the named humans and Agents (each Agent with a registered card and an open
 * session), and optionally a Mission with members granted.
 *
 *   ({ h, owner, coordinator, worker, mission } = await world({
 *     humans: { owner: 'dana' },
 *     agents: { coordinator: {}, worker: WORKER_CAPABILITIES },
 *     mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
 *   }));
 *
 * `world` is the pipeline against PostgreSQL (int tests); `serverWorld` puts the same behind a
 * listening wss/HTTPS node (e2e tests). Humans are made first, then Agents, each in the order
 * given; an Agent's handle is its name in kebab case (`childCoordinator` → `child-coordinator`)
 * unless given. The names `db`, `h`, `server` and `mission` are the world's own.
 */

import type { AuthoritySettings } from '../../src/app/settings.js';
import type { AnyExtensionProfile } from '../../src/domain/kinds/profile.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { TransportLimits } from '../../src/transport/limits.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { Harness, type Actor } from './harness.js';
import { createMission, type MissionRefs } from './missions.js';
import { startTestServer, type TestServer } from './server.js';
import type { Logger } from 'pino';

/** An Agent: its capabilities, or its handle and capabilities (the Harness's defaults otherwise). */
export type AgentSpec = readonly string[] | { readonly handle?: string; readonly capabilities?: readonly string[] };

/** A member's roles, or its roles and `membership.change` payload members (such as `visibilityAfterSequence`). */
export type MemberSpec = readonly string[] | { readonly roles: readonly string[]; readonly extra?: JsonObject };

export interface MissionSpec {
  /** The human (or Agent) name that creates the Mission. */
  readonly owner: string;
  readonly coordinator: string;
  /** `mission.create` payload members over the fixture's defaults. */
  readonly payload?: JsonObject;
  /** Members the owner adds with `membership.change` at Membership Epoch 1, in order. */
  readonly members?: Readonly<Record<string, MemberSpec>>;
}

export interface WorldSpec {
  /** Name → handle. */
  readonly humans?: Readonly<Record<string, string>>;
  readonly agents?: Readonly<Record<string, AgentSpec>>;
  readonly mission?: MissionSpec;
  readonly settings?: Partial<AuthoritySettings>;
  readonly profiles?: readonly AnyExtensionProfile[];
  readonly poolSize?: number;
}

type Names<S extends WorldSpec> = (S['humans'] extends object ? keyof S['humans'] : never) | (S['agents'] extends object ? keyof S['agents'] : never);
type Actors<S extends WorldSpec> = { readonly [K in Names<S> & string]: Actor };
type MissionOf<S extends WorldSpec> = S['mission'] extends MissionSpec ? { readonly mission: MissionRefs } : unknown;

export type World<S extends WorldSpec> = { readonly db: TestDatabase; readonly h: Harness } & Actors<S> & MissionOf<S>;

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function agentOf(name: string, spec: AgentSpec): { handle: string; capabilities?: string[] } {
  if (Array.isArray(spec)) return { handle: kebab(name), capabilities: [...(spec as readonly string[])] };
  const { handle, capabilities } = spec as Exclude<AgentSpec, readonly string[]>;
  return { handle: handle ?? kebab(name), ...(capabilities === undefined ? {} : { capabilities: [...capabilities] }) };
}

/** Adds `actor` to a Mission's Group as its owner does (§9). */
export async function grantMember(h: Harness, owner: Actor, mission: MissionRefs, actor: Actor, spec: MemberSpec): Promise<void> {
  const { roles, extra = {} } = Array.isArray(spec) ? { roles: spec as readonly string[] } : (spec as Exclude<MemberSpec, readonly string[]>);
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...actor.principal }, roles: [...roles], ...extra }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

/** The named actors and Mission of `spec` on a started harness. */
export async function populate<S extends WorldSpec>(h: Harness, spec: S): Promise<Actors<S> & MissionOf<S>> {
  const actors: Record<string, Actor> = {};
  for (const [name, handle] of Object.entries(spec.humans ?? {})) actors[name] = await h.human(handle);
  for (const [name, agent] of Object.entries(spec.agents ?? {})) {
    const { handle, capabilities } = agentOf(name, agent);
    actors[name] = await h.agent(handle, capabilities);
  }
  const named = (name: string): Actor => {
    const actor = actors[name];
    if (actor === undefined) throw new Error(`world: no human or Agent named ${name}`);
    return actor;
  };
  if (spec.mission === undefined) return actors as Actors<S> & MissionOf<S>;
  const { owner, coordinator, payload, members = {} } = spec.mission;
  const mission = await createMission(h, named(owner), named(coordinator), payload);
  for (const [name, member] of Object.entries(members)) await grantMember(h, named(owner), mission, named(name), member);
  return { ...actors, mission } as Actors<S> & MissionOf<S>;
}

/** A Group Authority on a database of this file's own, with the named actors (int tests). */
export async function world<const S extends WorldSpec>(spec: S): Promise<World<S>> {
  const db = await createTestDatabase(spec.poolSize === undefined ? {} : { poolSize: spec.poolSize });
  const h = await Harness.start(db.pool, spec.settings, undefined, spec.profiles);
  return { db, h, ...(await populate(h, spec)) } as World<S>;
}

export interface ServerWorldSpec extends WorldSpec {
  readonly limits?: Partial<TransportLimits>;
  readonly logger?: Logger;
  readonly contextGenerator?: boolean;
}

export type ServerWorld<S extends WorldSpec> = World<S> & { readonly server: TestServer };

/** The same behind one listening node (e2e tests); `h` is the node's harness. */
export async function serverWorld<const S extends ServerWorldSpec>(spec: S): Promise<ServerWorld<S>> {
  const server = await startTestServer(spec.limits, {
    ...(spec.logger === undefined ? {} : { logger: spec.logger }),
    ...(spec.settings === undefined ? {} : { settings: spec.settings }),
    ...(spec.contextGenerator === undefined ? {} : { contextGenerator: spec.contextGenerator }),
    ...(spec.profiles === undefined ? {} : { profiles: spec.profiles }),
  });
  return { server, db: server.db, h: server.harness, ...(await populate(server.harness, spec)) } as ServerWorld<S>;
}
