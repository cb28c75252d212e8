/**
 * What the console's browser tests against a real node share: a `missionweave serve` on its own
 * PostgreSQL and operator folder, headless Chromium on its HTTPS origin, Principals added with
 * the operator CLI, SDK Agents connected over wss, and the SDK side of the scenario (the
 * Coordinator following the Group; the Worker doing the agenda WorkItem until it is submitted).
 */

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { MissionWeaveAgent } from '../../src/client/agent.js';
import { MissionWeaveCoordinator } from '../../src/client/coordinator.js';
import { MissionWeaveWorker } from '../../src/client/worker.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { CAPABILITY, agendaContract, selectionBasis } from './consoleScenario.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { cli, lastJson, serve, type ServeProcess } from './nodeProcess.js';

export const CHROMIUM = process.env['MW_CHROMIUM'] ?? '/usr/bin/chromium';
export const haveBrowser = existsSync(CHROMIUM);
export const WAIT = 30_000;

/** A Principal as `human add` / `agent add` printed it, with its key file and the printed line. */
export interface ConsolePrincipal {
  readonly id: string;
  readonly keyId: string;
  readonly file: string;
  readonly line: string;
}

export class ConsoleNode {
  readonly pageErrors: string[] = [];
  private readonly agents: MissionWeaveAgent[] = [];

  private constructor(
    private readonly scratch: string,
    readonly dir: string,
    readonly db: TestDatabase,
    readonly node: ServeProcess,
    readonly ca: string,
    private readonly browser: Browser,
    readonly page: Page,
  ) {
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
  }

  /** A fresh operator folder and database, the node serving them, and a 1280×800 page. */
  static async start(prefix: string): Promise<ConsoleNode> {
    const scratch = mkdtempSync(join(tmpdir(), prefix));
    const dir = join(scratch, 'org');
    const db = await createTestDatabase();
    expect(cli(db.url, 'init', '--dir', dir).code).toBe(0);
    const node = await serve(db.url, dir);
    const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    return new ConsoleNode(scratch, dir, db, node, ca, browser, await context.newPage());
  }

  /** A fresh browser context; `trustAnyCertificate: false` makes it judge the node's certificate as a browser does by default. */
  newContext(width: number, height: number, trustAnyCertificate = true) {
    return this.browser.newContext({ ignoreHTTPSErrors: trustAnyCertificate, viewport: { width, height } });
  }

  add(kind: 'human' | 'agent', handle: string, ...extra: string[]): ConsolePrincipal {
    const result = cli(this.db.url, kind, 'add', handle, '--dir', this.dir, ...extra);
    expect(result.code, result.stderr).toBe(0);
    const printed = lastJson(result.stdout) as { id: string; keyId: string; privateKeyFile: string };
    const file = isAbsolute(printed.privateKeyFile) ? printed.privateKeyFile : join(this.dir, printed.privateKeyFile);
    return { id: printed.id, keyId: printed.keyId, file, line: result.stdout.trim().split('\n').at(-1) as string };
  }

  /** An Agent with the scenario's capability, ready to coordinate or work. */
  addAgent(handle: string): ConsolePrincipal {
    return this.add('agent', handle, '--capability', `${CAPABILITY.id}@${CAPABILITY.version}`);
  }

  async connect(who: ConsolePrincipal): Promise<MissionWeaveAgent> {
    const agent = new MissionWeaveAgent({ url: this.node.url, ca: this.ca, agentId: who.id, keyId: who.keyId, privateKey: readFileSync(who.file, 'utf8') });
    this.agents.push(agent);
    await agent.connect();
    return agent;
  }

  async until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
    const deadline = Date.now() + WAIT;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; page errors: ${this.pageErrors.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    for (const agent of this.agents) await agent.close().catch(() => undefined);
    await this.browser.close();
    await this.node.kill('SIGTERM');
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** The SDK Coordinator of a Group the page created: every Event it sees, its epochs, the main Conversation. */
export interface FollowingCoordinator {
  readonly agent: MissionWeaveAgent;
  readonly coordinator: MissionWeaveCoordinator;
  readonly seen: JsonObject[];
  readonly mainConversationId: string;
  asCoordinator(): { groupId: string; membershipEpoch: number; coordinatorEpoch: number };
  /** Posts a Message to the main Conversation; returns its ID. */
  post(content: string): Promise<string>;
}

export async function followAsCoordinator(env: ConsoleNode, planner: ConsolePrincipal, groupId: string): Promise<FollowingCoordinator> {
  const agent = await env.connect(planner);
  const coordinator = new MissionWeaveCoordinator(agent);
  const seen: JsonObject[] = [];
  agent.onEvent((event) => void seen.push(event as unknown as JsonObject));
  await agent.subscribe(groupId);
  const epochs = await env.until(() => coordinator.epochs.facts(groupId)?.coordinatorEpoch !== undefined && coordinator.epochs.facts(groupId), 'the Coordinator Epoch');
  const asCoordinator = () => ({ groupId, membershipEpoch: epochs.membershipEpoch as number, coordinatorEpoch: epochs.coordinatorEpoch as number });
  const mainConversationId = String(((seen.find((e) => e['kind'] === 'mission.created')?.['payload'] as JsonObject)['group'] as JsonObject)['mainConversationId']);
  const post = async (content: string) => {
    const messageId = `urn:uuid:${randomUUID()}`;
    await agent.command('message.post', { messageId, conversationId: mainConversationId, content }, asCoordinator());
    return messageId;
  };
  return { agent, coordinator, seen, mainConversationId, asCoordinator, post };
}

/**
 * The Coordinator admits `writer`, authorizes the agenda WorkItem and offers it; the Worker (an
 * SDK Agent) publishes `agenda` as its Artifact, with evidence, and submits. Resolves once the
 * Coordinator has seen the WorkItem submitted.
 */
export async function agendaSubmitted(env: ConsoleNode, lead: FollowingCoordinator, writer: ConsolePrincipal, groupId: string, agenda: string): Promise<{ workItemId: string; hashes: string[]; submitted: JsonObject }> {
  await lead.coordinator.admit(groupId, writer.id);
  const workerAgent = await env.connect(writer);
  const worker = new MissionWeaveWorker(workerAgent);
  const done = new Promise<string[]>((resolve, reject) => {
    worker.onOffer(async (offer) => {
      const owned = await worker.accept(offer);
      await worker.run(owned, async (execution) => {
        const published = await execution.publishArtifact({ bytes: Buffer.from(agenda) }, { mediaType: 'text/markdown', schemaUri: 'urn:missionweave:schema:agenda' });
        const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: ['agenda-complete'], method: 'Counted the slots.', result: 'passed', artifactHashes: [published.contentHash] });
        await execution.submit({ artifactHashes: [published.contentHash], evidence: [evidence] });
        resolve([published.contentHash]);
      });
    });
    worker.onError((error) => reject(error));
  });
  await workerAgent.subscribe(groupId);
  const { workItem } = await lead.coordinator.authorize(groupId, { contract: agendaContract() as never });
  await lead.coordinator.offer(groupId, { workItemId: workItem.workItemId, candidateAgentIds: [writer.id], selectionBasis: selectionBasis() as never, offerExpiresInSeconds: 60 });
  const hashes = await done;
  const submitted = await env.until(() => lead.seen.map((e) => (e['payload'] as JsonObject | undefined)?.['workItem'] as JsonObject | undefined).find((w) => w?.['workItemId'] === workItem.workItemId && w['state'] === 'submitted'), 'the submitted WorkItem');
  return { workItemId: workItem.workItemId, hashes, submitted };
}
