/**
 * The agent SDK where resuming is harder: a Cursor older than the online replay window
 * (CURSOR_TOO_OLD → signed snapshot fetched over HTTPS, hash-checked, handed over, resumed),
 * an attention filter whose live gaps must not advance the Cursor, and the runnable quickstart
 * example, run twice with `node` as a README reader would.
 */

import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MissionWeaveAgent, type AgentError, type GroupEvent, type GroupSnapshotArtifact, type MissionWeaveAgentOptions } from '../src/client/index.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { canonicalize } from '../src/protocol/jcs.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

const WINDOW = 3;
let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;
const running: MissionWeaveAgent[] = [];

beforeAll(async () => {
  ({ server, owner, coordinator, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    limits: { onlineReplayWindow: WINDOW },
  }));
  await ownerPosts(WINDOW + 2);
});

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.close()));
});

function sdkAgent(actor: Actor, options: Partial<MissionWeaveAgentOptions> = {}): MissionWeaveAgent {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey, ...options });
  running.push(agent);
  return agent;
}

async function ownerPosts(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const payload = { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: `owner ${i}` };
    await server.harness.expectOk(server.harness.send(owner, 'message.post', payload, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
}

async function head(): Promise<number> {
  return (await eventsOf(server.db.pool, mission.groupId)).length;
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('CURSOR_TOO_OLD', () => {
  it('restores the hash-checked snapshot through the hook, then resumes after it with live Events', async () => {
    const agent = sdkAgent(coordinator);
    const restored: GroupSnapshotArtifact[] = [];
    const handled: GroupEvent[] = [];
    agent.onSnapshot((groupId, artifact) => {
      expect(groupId).toBe(mission.groupId);
      restored.push(artifact);
    });
    agent.onEvent((event) => void handled.push(event));
    await agent.connect();
    await agent.subscribe(mission.groupId, { afterSequence: 0 });
    const through = await head();
    await until(() => restored.length === 1);
    const [artifact] = restored as [GroupSnapshotArtifact];
    expect(artifact.snapshot).toMatchObject({ groupId: mission.groupId, throughSequence: through });
    expect(artifact.hash).toBe(sha256ContentHash(canonicalize({ snapshot: artifact.snapshot, state: artifact.state })));
    await until(() => agent.cursor(mission.groupId) === through);
    await ownerPosts(2);
    await until(() => handled.length === 2);
    expect(handled.map((e) => e.sequence)).toEqual([through + 1, through + 2]);
  });

  it('without a snapshot hook, reports the typed error with its snapshot reference and stops the Group', async () => {
    const agent = sdkAgent(coordinator);
    const errors: AgentError[] = [];
    agent.onError((error) => void errors.push(error));
    await agent.connect();
    await agent.subscribe(mission.groupId, { afterSequence: 0 });
    await until(() => errors.length > 0);
    expect(errors[0]).toMatchObject({ code: 'CURSOR_TOO_OLD', groupId: mission.groupId, snapshotArtifactHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(errors[0]?.name === 'MissionWeaveError' && errors[0].details?.['snapshotUrl']).toMatch(/^\/v1\/groups\//);
  });
});

describe('attention filters', () => {
  it('never counts a filtered live gap into the Cursor: the Group is replayed across it, in order', async () => {
    const agent = sdkAgent(coordinator, { gapGraceMs: 50 });
    const handled: GroupEvent[] = [];
    agent.onEvent((event) => void handled.push(event));
    await agent.connect();
    const start = await head();
    await agent.subscribe(mission.groupId, { afterSequence: start, attention: { eventKinds: ['membership.changed'] } });
    const worker = await server.harness.agent('filtered-worker');
    await ownerPosts(1);
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    await until(() => agent.cursor(mission.groupId) === start + 2);
    expect(handled.map((e) => [e.sequence, e.kind])).toEqual([[start + 1, 'message.posted'], [start + 2, 'membership.changed']]);
  });
});

describe('examples/agent-quickstart.mjs', () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }>((resolve) => {
      execFile(process.execPath, ['examples/agent-quickstart.mjs'], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), lines: stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>), stderr });
      });
    });

  it('joins, posts, stops, and resumes on the next run after its saved Cursor', async () => {
    // Node resolves missionweave/client through "exports" to dist/client: build just that part.
    // Type errors are tsc --noEmit's business; here only the emitted JavaScript matters.
    const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--outDir', 'dist', '--rootDir', 'src', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--lib', 'es2023,es2024.string', '--types', 'node', '--strict', '--skipLibCheck', '--sourceMap', 'src/client/index.ts'], { encoding: 'utf8' });
    expect(existsSync('dist/client/index.js'), build.stdout).toBe(true);
    const agent = await server.harness.agent('quickstart');
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const directory = mkdtempSync(join(tmpdir(), 'mw-quickstart-'));
    writeFileSync(join(directory, 'agent.pem'), agent.key.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    writeFileSync(join(directory, 'ca.pem'), server.ca);
    const env = {
      MW_URL: server.url,
      MW_CA_FILE: join(directory, 'ca.pem'),
      MW_AGENT_ID: agent.principal.id,
      MW_KEY_ID: agent.key.keyId,
      MW_PRIVATE_KEY_FILE: join(directory, 'agent.pem'),
      MW_GROUP_ID: mission.groupId,
      MW_CONVERSATION_ID: mission.mainConversationId,
      MW_CURSOR_FILE: join(directory, 'cursors.json'),
    };
    const first = await run(env);
    expect(first, build.stdout).toMatchObject({ code: 0, stderr: '' });
    await ownerPosts(2);
    const second = await run({ ...env, MW_MESSAGE: 'back again' });
    expect(second).toMatchObject({ code: 0, stderr: '' });

    const handled = [...first.lines, ...second.lines].filter((l) => 'handled' in l);
    const sequences = handled.map((l) => Number(l['handled']));
    const firstSequence = sequences[0] as number;
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => firstSequence + i));
    expect(new Set(handled.map((l) => l['eventId'])).size).toBe(handled.length);
    expect(handled[0]).toMatchObject({ kind: 'membership.changed' });
    const secondHandled = second.lines.filter((l) => 'handled' in l).map((l) => [l['kind'], l['actor']]);
    expect(secondHandled).toEqual([['message.posted', owner.principal.id], ['message.posted', owner.principal.id], ['message.posted', agent.principal.id]]);
    for (const result of [first, second]) {
      const posted = (result.lines.find((l) => 'posted' in l)?.['posted'] ?? {}) as { sequence: number };
      expect(result.lines.at(-1)).toEqual({ done: { cursor: posted.sequence, sessionEpoch: expect.any(Number) } });
    }
    expect(sequences.at(-1)).toBe(await head());
  });
});
