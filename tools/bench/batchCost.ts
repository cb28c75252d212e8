/**
 * `npm run bench:batch-cost`: CPU per Command at fixed batch sizes, in one process. The full
 * bench's paced phases decide their batch sizes by timing, so on a shared 2-core machine the
 * same build gives 620 or 960 µs of server CPU per Command at "half load" from one run to the
 * next; here k Commands to k different Groups are submitted together and the next k only once
 * all are answered, so each round is one or a few write transactions of about k Commands, and
 * the per-transaction costs (round trips to PostgreSQL, hand-offs to crypto workers) show as
 * the difference between k = 1 and large k. No sockets and no load processes: the Authority
 * runs in this process (`openAuthority`, the defaults of `serve`: crypto workers, writers) and
 * its CPU is this process's `process.cpuUsage()` (all threads); PostgreSQL's is its process tree.
 *
 *   npm run bench:batch-cost -- [--sizes 1,2,4,16,64] [--commands 2000] [--json]
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { openAuthority } from '#src/server.js';
import { openEmbeddedPostgres } from '#src/store/embeddedPostgres.js';
import { BenchWorld, type BenchMission } from './benchWorld.js';
import { postmasterPid, readProcStats, treeTicks, USER_HZ } from './cpuCost.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(name);
  return at < 0 ? fallback : String(argv[at + 1]);
};
const SIZES = option('--sizes', '1,2,4,16,64').split(',').map(Number);
const COMMANDS = Number(option('--commands', '2000'));
const log = (line: string) => process.stderr.write(`[batch-cost] ${line}\n`);

export interface BatchCostPoint {
  readonly batch: number;
  readonly commands: number;
  readonly serverCpuUsPerCommand: number;
  readonly postgresCpuUsPerCommand: number;
  readonly wallMsPerRound: number;
}

/**
 * Per round, one signed `message.post` to each of the first k Groups, by their owner (a human:
 * an Agent's Command would need a live session's epoch, which has no place in this process).
 */
function commands(world: BenchWorld, missions: readonly BenchMission[], k: number, rounds: number): string[][] {
  return Array.from({ length: rounds }, () => missions.slice(0, k).map((mission) => {
    const command = signCommand({ actor: world.owner.principal, kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.conversationId, content: 'x'.repeat(900) }, groupId: mission.groupId, membershipEpoch: 1, issuedAt: timestampOf(Date.now()) }, world.owner.key);
    return JSON.stringify(command);
  }));
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mw-batch-cost-'));
  const database = await openEmbeddedPostgres(join(root, 'db'), { temporary: true });
  try {
    const world = await BenchWorld.create(join(root, 'org'), database.url);
    const most = Math.max(...SIZES);
    const agents = await world.agents('writer', most);
    const missions: BenchMission[] = [];
    for (const agent of agents) missions.push(await world.mission(agent, []));
    // The node under test, with `serve`'s defaults; sessions are not checked on this path.
    const node = await openAuthority(world.home, { logger: pino({ level: 'warn' }), poolSize: 16 });
    const pgPid = postmasterPid(database.dataDirectory);
    const points: BatchCostPoint[] = [];
    for (const k of SIZES) {
      const rounds = Math.max(10, Math.ceil(COMMANDS / k));
      const texts = commands(world, missions, k, rounds + 2);
      // Two warm-up rounds: each Group's state is loaded, each statement prepared.
      for (const round of texts.splice(0, 2)) await Promise.all(round.map((t) => node.authority.submit(JSON.parse(t), { text: t, frame: false })));
      const pgBefore = treeTicks(await readProcStats(), pgPid);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const windowStart = process.hrtime.bigint() / 1000n;
      const refused: string[] = [];
      for (const round of texts) {
        const outcomes = await Promise.all(round.map((t) => node.authority.submit(JSON.parse(t), { text: t, frame: false })));
        for (const o of outcomes) if (!o.ok) refused.push(o.error.code);
      }
      const wall = performance.now() - started;
      const windowEnd = process.hrtime.bigint() / 1000n;
      const cpu = process.cpuUsage(cpuBefore);
      const pgAfter = treeTicks(await readProcStats(), pgPid);
      if (refused.length > 0) throw new Error(`${refused.length} Commands refused at batch ${k}: ${[...new Set(refused)].join(', ')}`);
      const count = rounds * k;
      const point = {
        batch: k,
        commands: count,
        serverCpuUsPerCommand: Math.round((cpu.user + cpu.system) / count),
        postgresCpuUsPerCommand: Math.round(((pgAfter - pgBefore) * 1e6) / USER_HZ / count),
        wallMsPerRound: Number((wall / rounds).toFixed(2)),
      };
      points.push(point);
      log(`batch ${k}: ${count} Commands, server ${point.serverCpuUsPerCommand} µs + PostgreSQL ${point.postgresCpuUsPerCommand} µs of CPU per Command, ${point.wallMsPerRound} ms per round; window ${windowStart}-${windowEnd}`);
    }
    await node.close();
    await world.close();
    process.stdout.write(`${JSON.stringify(argv.includes('--json') ? { points } : points)}\n`);
  } finally {
    await database.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
