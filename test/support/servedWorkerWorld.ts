/**
 * The shared setup of the e2e files that run the Agent runtime as its own process against a node
 * started with `serve` (mcpRestart and mcpOutboxOffline: `missionweave mcp`; workerCommand and
 * workerOutboxRestart: `missionweave worker`): the node and its home (mcpNode.ts's startMcpNode:
 * `init`, Agents and a human added with the CLI), a Mission whose Coordinator — an SDK Agent over
 * wss — authorizes WorkItems and offers them to the Worker `builder`, and the helpers those files
 * use to offer work and read a WorkItem's Events. `w.node.stop()` takes the node down and
 * `w.node.start()` serves it again from the same folder, database and port (the Authority
 * unreachable, then back); the Coordinator reconnects on its own. Call it once at the top of a
 * test file: it registers its own beforeAll and afterAll.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { MissionWeaveAgent } from '../../src/client/index.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { startMcpNode, type CliPrincipal, type McpNode } from './mcpNode.js';
import { eventsOf } from './missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './payloadExamples.js';
import { until as untilWithin } from './runtimeHostWorld.js';

export interface ServedWorkerWorld {
  node: McpNode;
  /** The Mission's Group. */
  groupId: string;
  /** The Worker Agent, added as `builder` with the capability the example Work Contract requires. */
  builder: CliPrincipal;
  /** The Coordinator (`planner`), connected over wss. */
  coordinator: MissionWeaveAgent;
  /** A scratch folder (the node's home is `node.dir` in it), removed after the file. */
  scratch: string;
  /** Run first, in order, after the file (the processes it started). */
  readonly closing: (() => unknown)[];
}

/** Polls `check` until it returns a value; fails naming `what` after `timeoutMs` (processes on a loaded machine: a minute). */
export function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  return untilWithin(check, what, timeoutMs);
}

/** True once no process has `pid`, undefined while one does: what `until` waits for after an MCP server is closed. */
export function processGone(pid: number): true | undefined {
  try {
    process.kill(pid, 0);
    return undefined;
  } catch {
    return true;
  }
}

/** `bystanders`: more Agents added to the node that do not join the Mission. */
export function servedWorkerWorld(options: { readonly prefix: string; readonly bystanders?: readonly string[] }) {
  const w = { closing: [] } as unknown as ServedWorkerWorld;

  beforeAll(async () => {
    w.node = await startMcpNode(['builder'], [], {
      prefix: options.prefix,
      capabilities: { builder: ['acme.sql-migration@1.5.0'] },
      bystanders: options.bystanders ?? [],
      mission: {
        title: 'Port the billing schema',
        objective: 'A reversible ledger migration.',
        definitionOfDone: [{ criterionId: 'migrated', description: 'Migrated.', evidenceRequired: ['human_review'] }],
        budget: { currency: 'EUR', financialLimit: 100 },
        deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      },
    });
    w.groupId = w.node.groupId;
    w.scratch = dirname(w.node.dir);
    w.builder = w.node.agents['builder'] as CliPrincipal;
    const planner = w.node.agents['planner'] as CliPrincipal;
    w.coordinator = new MissionWeaveAgent({ url: w.node.node.url, ca: w.node.ca, agentId: planner.id, keyId: planner.keyId, privateKey: createPrivateKey(readFileSync(planner.privateKeyFile)) });
    await w.coordinator.connect();
  }, 180_000);

  afterAll(async () => {
    for (const close of w.closing.splice(0)) await close();
    await w.coordinator?.close();
    await w.node?.close();
  });

  const asCoordinator = () => ({ groupId: w.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

  /** A WorkItem the Coordinator authorized and offered to `builder`; its ID. */
  const offered = async (): Promise<string> => {
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 20 } };
    await w.coordinator.command('work.authorize', { workItemId, contract }, asCoordinator());
    const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
    await w.coordinator.command('work.offer', { workItemId, candidateAgentIds: [w.builder.id], selectionBasis }, asCoordinator());
    return workItemId;
  };

  /** The Group's Events about `workItemId`, in order. */
  const workEvents = async (workItemId: string): Promise<JsonObject[]> =>
    (await eventsOf(w.node.db.pool, w.groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId);

  return { w, asCoordinator, offered, workEvents };
}
