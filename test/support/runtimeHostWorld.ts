/**
 * The shared setup of the runtime host's and the durable outbox's e2e files (runtimeHost*,
 * hostRunBlockRefused, outboxMembershipStale, outboxRebaseOwnLease): a real node (wss, TLS,
 * PostgreSQL) with a Mission whose Coordinator offers work to one Worker Agent, a scratch folder
 * for projections, and the helpers those files use to start a host or a Worker on a projection,
 * authorize and offer work, read a WorkItem's Events, drop the Worker's connection and watch the
 * Authority's `submit`. Call it once at the top of a test file: it registers its own beforeAll and
 * afterAll.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { GroupAuthority, Submission } from '../../src/app/groupAuthority.js';
import { AuthorityReactor } from '../../src/app/reactor/authorityReactor.js';
import { MissionWeaveAgent } from '../../src/client/index.js';
import { memberGroups } from '../../src/client/runtime/hostReads.js';
import { MissionWeaveWorker } from '../../src/client/worker.js';
import { RuntimeHost, type RuntimeHostOptions } from '../../src/client/runtime/hostRuntime.js';
import type { JobHandler } from '../../src/client/runtime/job.js';
import { openAgentRuntime, type AgentRuntime } from '../../src/client/runtime/runtime.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { Actor } from './harness.js';
import { eventsOf, type MissionRefs } from './missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './payloadExamples.js';
import { WORKER_CAPABILITIES } from './publishedWork.js';
import type { TestServer } from './server.js';
import { serverWorld } from './world.js';

export interface RuntimeHostWorld {
  server: TestServer;
  mission: MissionRefs;
  coordinator: Actor;
  workerActor: Actor;
  /** A scratch folder, removed after the file. */
  readonly dir: string;
  /** Closed in reverse order after the file. */
  readonly closing: (() => unknown)[];
}

/** `ahead`: registers Event handlers on the host's Agent before the host's own (they run first, in order). */
type HostOptions = Partial<Pick<RuntimeHostOptions, 'jobTimeoutMs'>> & { readonly ahead?: (agent: MissionWeaveAgent) => void };

/** Polls `check` every 50 ms until it returns a value; fails naming `what` after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `reactor`: run the Authority's reactor, as `serve` does (it closes a replaced Session's Execution Leases, §11.3). */
export function runtimeHostWorld(prefix: string, options: { reactor: boolean }) {
  const w = { dir: mkdtempSync(join(tmpdir(), prefix)), closing: [] } as unknown as RuntimeHostWorld;

  beforeAll(async () => {
    ({ server: w.server, coordinator: w.coordinator, workerActor: w.workerActor, mission: w.mission } = await serverWorld({
      humans: { owner: 'owner' },
      agents: { coordinator: {}, workerActor: { handle: 'worker', capabilities: WORKER_CAPABILITIES } },
      mission: { owner: 'owner', coordinator: 'coordinator', members: { workerActor: ['worker'] } },
    }));
    if (options.reactor) {
      const reactor = AuthorityReactor.start({ authority: w.server.harness.authority, pool: w.server.db.pool, logger: pino({ level: 'silent' }) });
      w.closing.push(() => reactor.close());
    }
  });

  afterAll(async () => {
    for (const close of w.closing.splice(0).reverse()) await close();
    rmSync(w.dir, { recursive: true, force: true });
  });

  const asCoordinator = (): { groupId: string; membershipEpoch: number; coordinatorEpoch: number } => ({ groupId: w.mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

  /** A client of the Worker Agent; with a runtime, on its Cursors. */
  const agentOf = (runtime?: AgentRuntime): MissionWeaveAgent =>
    new MissionWeaveAgent({ url: w.server.url, ca: w.server.ca, agentId: w.workerActor.principal.id, keyId: w.workerActor.key.keyId, privateKey: w.workerActor.key.privateKey, ...(runtime === undefined ? {} : { cursorStore: runtime.cursorStore }) });

  /** A runtime with one slot on the projection at `path` and a host running `handler` on it, both closed when the test ends; the host's log lines. */
  const hostOn = (path: string, handler: JobHandler, { ahead, ...hostOptions }: HostOptions = {}, clock?: () => number): { host: RuntimeHost; runtime: AgentRuntime; lines: string[] } => {
    const runtime = openAgentRuntime({ path, agentId: w.workerActor.principal.id, slots: 1, ...(clock === undefined ? {} : { clock }) });
    const lines: string[] = [];
    const agent = agentOf(runtime);
    ahead?.(agent);
    const host = new RuntimeHost({ agent, runtime, handler, executionLeaseSeconds: 60, log: (line) => void lines.push(line), ...hostOptions });
    // Stopped when its test ends: a host left running is a second session of the same Agent, and
    // each HELLO of one fences the other's connection (§6.3), so the next test's host was
    // replaced again and again under it.
    onTestFinished(async () => {
      await host.stop(100);
      runtime.close();
    });
    return { host, runtime, lines };
  };

  /** A WorkItem authorized by the Coordinator (not offered); its ID. */
  const authorize = async (requestedUrgency: string = EXAMPLE_WORK_CONTRACT.requestedUrgency): Promise<string> => {
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    const contract = { ...EXAMPLE_WORK_CONTRACT, requestedUrgency, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
    await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.authorize', { workItemId, contract }, asCoordinator()));
    return workItemId;
  };

  /** The Coordinator offers the WorkItem to the Worker (again). */
  const offerAgain = async (workItemId: string): Promise<void> => {
    const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
    await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.offer', { workItemId, candidateAgentIds: [w.workerActor.principal.id], selectionBasis }, asCoordinator()));
  };

  /** A WorkItem authorized and offered to the Worker by the Coordinator; its ID. */
  const offer = async (requestedUrgency?: string): Promise<string> => {
    const workItemId = await authorize(requestedUrgency);
    await offerAgain(workItemId);
    return workItemId;
  };

  const eventsOfWork = async (workItemId: string): Promise<JsonObject[]> =>
    (await eventsOf(w.server.db.pool, w.mission.groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId);
  const eventOf = async (workItemId: string, kind: string): Promise<JsonObject | undefined> => (await eventsOfWork(workItemId)).find((e) => e['kind'] === kind);
  const kindsOf = async (workItemId: string): Promise<string[]> => (await eventsOfWork(workItemId)).map((e) => e['kind'] as string);

  /** Drops the Worker's server-side sockets as a network failure would; the Agent reconnects under a new Session. */
  const dropWorker = (): void => {
    const registry = w.server.listener.sessions as unknown as { byAgent: Map<string, Set<{ ws: { terminate(): void } }>> };
    for (const connection of registry.byAgent.get(w.workerActor.principal.id) ?? []) connection.ws.terminate();
  };

  /**
   * Intercepts the Authority's `submit` of the Worker's Commands of `kind` until the test ends (or
   * `restore`): each is added to `calls`, and the first goes through `first`.
   */
  const interceptSubmits = <C>(kind: string, first: (original: () => Promise<Submission>) => Promise<Submission>): { calls: C[]; restore(): void } => {
    const authority = w.server.harness.authority as GroupAuthority & { submit: GroupAuthority['submit'] };
    const original = authority.submit.bind(authority);
    const calls: C[] = [];
    authority.submit = (input, ...rest) => {
      const command = input as Record<string, unknown>;
      const actor = command['actor'] as { id?: string } | undefined;
      if (command['kind'] !== kind || actor?.id !== w.workerActor.principal.id) return original(input, ...rest);
      calls.push(input as C);
      return calls.length === 1 ? first(() => original(input, ...rest)) : original(input, ...rest);
    };
    const restore = (): void => void (authority.submit = original);
    onTestFinished(restore);
    return { calls, restore };
  };

  /**
   * A Worker without a host on its own projection (`name`.sqlite in the scratch folder), connected,
   * its Membership Epoch in the Mission's Group read from the Authority; closed when the test ends.
   */
  const projectionWorker = async (name: string) => {
    const runtime = openAgentRuntime({ path: join(w.dir, `${name}.sqlite`), agentId: w.workerActor.principal.id, slots: 1 });
    const agent = agentOf(runtime);
    const worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 60 });
    onTestFinished(async () => {
      worker.close();
      await agent.close();
      runtime.close();
    });
    await agent.connect();
    const { groupId } = w.mission;
    const membershipEpoch = (await memberGroups(agent)).find((g) => g.groupId === groupId)?.membershipEpoch as number;
    worker.epochs.set(groupId, { membershipEpoch });
    return { runtime, agent, worker, groupId, membershipEpoch };
  };

  return { w, asCoordinator, agentOf, hostOn, authorize, offerAgain, offer, eventsOfWork, eventOf, kindsOf, dropWorker, interceptSubmits, projectionWorker };
}
