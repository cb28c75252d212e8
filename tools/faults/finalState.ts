/**
 * Reading the outcome back after the faults: each Group's Events and accepted Commands from
 * the database, each Group replayed over wss through every node, and the operator's history
 * verification (signatures, admission anchors, contiguity, state rebuilt from the Events).
 */

import pino from 'pino';
import { verifyGroupHistory } from '#src/app/verifyGroupHistory.js';
import type { BenchAgent } from '../bench/benchWorld.js';
import { Home } from '#src/home/home.js';
import { openAuthority } from '#src/server.js';
import { createPool } from '#src/store/pool.js';
import { AgentLink } from './agentLink.js';
import type { Cluster } from './cluster.js';
import type { GroupLog, LoggedEvent, Replay } from './history.js';

export async function readFinalLogs(databaseUrl: string, groupIds: readonly string[]): Promise<GroupLog[]> {
  const pool = createPool(databaseUrl, { max: 2 });
  try {
    const logs: GroupLog[] = [];
    for (const groupId of groupIds) {
      const events = await pool.query<{ sequence: number; document: string }>('select sequence, document from events where group_id = $1 order by sequence', [groupId]);
      const receipts = await pool.query<{ action_id: string; command: string }>(`select action_id, command from receipts where group_id = $1
         union all select action_id, command from organization_receipts where group_id = $1`, [groupId]);
      logs.push({ groupId, events: events.rows.map((r) => ({ sequence: Number(r.sequence), text: r.document })), commands: new Map(receipts.rows.map((r) => [r.action_id, r.command])) });
    }
    return logs;
  } finally {
    await pool.end();
  }
}

async function replayOne(link: AgentLink, groupId: string, expected: number, timeoutMs: number): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    link.subscribe(groupId, 0, (group, sequence, text) => {
      if (group !== groupId) return;
      events.push({ sequence, text });
      if (events.length >= expected) {
        clearTimeout(timer);
        resolve();
      }
    });
    if (expected === 0) resolve();
  });
  return events;
}

/** Every Group replayed from the start through every node, as an Agent with full visibility. */
export async function replayThroughNodes(cluster: Cluster, ca: string, reader: BenchAgent, logs: readonly GroupLog[]): Promise<Replay[]> {
  const replays: Replay[] = [];
  for (const node of cluster.nodes) {
    if (node.url === undefined) continue;
    const link = await AgentLink.open(node.url, ca, reader);
    try {
      for (const log of logs) replays.push({ via: node.name, groupId: log.groupId, events: await replayOne(link, log.groupId, log.events.length, 30_000) });
    } finally {
      link.terminate();
    }
  }
  return replays;
}

/** The operator's `replay --verify` for every Group; its problems, if any. */
export async function verifyHistories(homeDir: string, databaseUrl: string, groupIds: readonly string[]): Promise<string[]> {
  process.env['DATABASE_URL'] = databaseUrl;
  const home = new Home(homeDir);
  const running = await openAuthority(home, { logger: pino({ level: 'warn' }) });
  try {
    const problems: string[] = [];
    for (const groupId of groupIds) {
      const report = await verifyGroupHistory(running.pool, groupId, { registry: running.authority.registry.current.registry, schemas: running.authority.schemas, authority: home.settings().services.authority, kinds: running.authority.kinds });
      problems.push(...report.problems.map((p) => `${groupId}: ${p}`));
    }
    return problems;
  } finally {
    await running.authority.close();
    await running.close();
  }
}
