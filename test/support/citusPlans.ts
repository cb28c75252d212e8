/**
 * The hot path's statements, exactly as the store builds them, and how Citus plans each: the
 * router-plan test (test/citusCluster.int.test.ts) and the bench's single-shard share read them.
 * Statements a store function sends itself are captured by a stand-in connection that records
 * them and answers as the database would.
 */

import type pg from 'pg';
import type { Queryable } from '../../src/store/pool.js';
import type { Statement } from '../../src/store/pipeline.js';
import { appendRoutedStatements } from '../../src/store/sql/appendRouted.js';
import { lockGroupsStatements, routedReadStatements } from '../../src/store/sql/batchReads.js';
import { findTakenIds, insertGroups } from '../../src/store/sql/groups.js';
import { readGroupTrees } from '../../src/store/sql/groupTrees.js';
import { readAncestorGroups } from '../../src/store/sql/ancestorGroups.js';
import { readGroupAggregates, readMessages } from '../../src/store/sql/aggregates.js';
import { readRecentEventsOfKinds } from '../../src/store/sql/recentEvents.js';
import { readTreeEventsById } from '../../src/store/sql/events.js';

export interface Labelled {
  readonly label: string;
  readonly statement: Statement;
}

/** Runs `use` against a connection that only records what it is sent; answers every Group ID asked for as inserted. */
async function captured(use: (db: Queryable) => Promise<unknown>): Promise<Statement[]> {
  const sent: Statement[] = [];
  const db = {
    query: (config: string | pg.QueryConfig, values?: unknown[]) => {
      const statement = typeof config === 'string' ? { text: config, values: values ?? [] } : { text: config.text, values: config.values ?? values ?? [] };
      sent.push(statement);
      // Every Group ID asked for is answered as listed (`insertGroups` then inserts its rows).
      const ids = statement.values.filter((v): v is string => typeof v === 'string' && v.startsWith('urn:missionweave:group:'));
      return Promise.resolve({ rows: ids.map((g) => ({ group_id: g })), rowCount: ids.length });
    },
  } as unknown as Queryable;
  await use(db);
  return sent;
}

/** Every statement of a Group batch and of Group creation, for one tree and one actor. */
export async function hotPathStatements(organizationId = 'urn:missionweave:org:test'): Promise<Labelled[]> {
  const tree = 'urn:missionweave:group:root';
  const child = 'urn:missionweave:group:child';
  const actor = { actorType: 'agent', actorId: 'urn:missionweave:agent:a' };
  const event = (groupId: string, sequence: number) => ({
    groupId, sequence, eventId: `urn:e:${groupId}:${sequence}`, kind: 'message.posted', aggregateType: 'message', aggregateId: 'urn:m', aggregateRevision: 1,
    document: '{}', signingHash: `h${sequence}`, admissionRecordId: `a${sequence}`, trustedAcceptedAt: 't', keyId: 'k',
  });
  const receipt = (actionId: string) => ({ ...actor, actionId, signingHash: actionId, kind: 'message.post', groupId: tree, command: '{}', eventIds: ['urn:e'], keyId: 'k', admissionRecordId: actionId, trustedAcceptedAt: 't' });
  const append = appendRoutedStatements({
    events: [event(tree, 1), event(child, 1)],
    aggregates: [{ groupId: tree, type: 'message', id: 'urn:m', revision: 1, document: {}, sequence: 1 }, { groupId: child, type: 'message', id: 'urn:m', revision: 1, document: {}, sequence: 1 }],
    receipts: [receipt('urn:action:1'), receipt('urn:action:2')],
    sequences: new Map([[tree, 1], [child, 1]]),
    notify: undefined,
    trees: new Map([[tree, tree], [child, tree]]),
  });
  const [fence, revision, lock] = lockGroupsStatements(new Map([[tree, [tree, child]]]), organizationId, true);
  const [receipts, sessions] = routedReadStatements([{ ...actor, actionId: 'urn:action:1' }, { ...actor, actionId: 'urn:action:2' }], [actor.actorId]);
  // A service's Command in a Group batch (the Authority's own): its receipts lie in the
  // coordinator's organization_receipts with its Organization Commands' (migration 0024).
  const service = { actorType: 'service', actorId: 'urn:missionweave:service:authority' };
  const [serviceReceipts] = routedReadStatements([{ ...service, actionId: 'urn:action:3' }], []);
  const [, serviceInsert] = appendRoutedStatements({
    events: [event(tree, 2)],
    aggregates: [],
    receipts: [{ ...receipt('urn:action:3'), ...service }],
    sequences: new Map(),
    notify: undefined,
    trees: new Map([[tree, tree]]),
  });
  const [trees] = await captured((db) => readGroupTrees(db, [tree, child]));
  const [ancestry] = await captured((db) => readAncestorGroups(db, child, 5));
  const [taken] = await captured((db) => findTakenIds(db, [child], ['urn:mission:child']));
  const [directory, groups] = await captured((db) => insertGroups(db, [{ groupId: child, missionId: 'urn:mission:child', treeId: tree, parentGroupId: tree }]));
  // A Group's state, loaded when this process's copy is stale, and a duplicate's Events.
  const [aggregates] = await captured((db) => readGroupAggregates(db, child, tree));
  const [messages] = await captured((db) => readMessages(db, child, tree, ['urn:m']));
  const [recent] = await captured((db) => readRecentEventsOfKinds(db, child, tree, 10, 100, ['message.posted'], 'message.posted'));
  const [duplicates] = await captured((db) => readTreeEventsById(db, [tree], ['urn:e']));
  const labelled: [string, Statement | undefined][] = [
    ['read the Groups\' trees', trees], ['read an ancestry', ancestry], ['fence the trees on the coordinator', fence], ['read the Registry revision', revision], ['lock a tree\'s Groups', lock],
    ['read an actor\'s receipts', receipts], ['read Session Epochs for share', sessions],
    ['read a Group\'s aggregates', aggregates], ['read a Group\'s Messages', messages], ['read a Group\'s recent Events', recent], ['read a duplicate\'s Events', duplicates],
    ['append Events', append[0]], ['upsert aggregates', append[1]], ['insert an actor\'s receipts', append[2]], ['advance the counters', append[3]],
    ['read a service\'s receipts', serviceReceipts], ['insert a service\'s receipts', serviceInsert],
    ['find taken IDs', taken], ['list new Groups', directory], ['insert new Groups', groups],
  ];
  return labelled.map(([label, statement]) => {
    if (statement === undefined) throw new Error(`no statement for "${label}"`);
    return { label, statement };
  });
}

/**
 * The hot-path statements that run on the coordinator alone: the read of a table of the coordinator
 * (citusLayout.ts, `COORDINATOR_TABLES`) and the trees' fence, its advisory locks (batchReads.ts).
 */
export const COORDINATOR_STATEMENTS: ReadonlySet<string> = new Set(['fence the trees on the coordinator', 'read the Registry revision']);

/** The hot-path statements whose one shard is the coordinator's (citusLayout.ts, `COORDINATOR_CITUS_TABLES`). */
export const COORDINATOR_SHARD_STATEMENTS: ReadonlySet<string> = new Set(['read a service\'s receipts', 'insert a service\'s receipts']);

interface PlanNode {
  readonly 'Node Type'?: string;
  readonly 'Custom Plan Provider'?: string;
  readonly 'Distributed Query'?: { readonly Subplans?: unknown[]; readonly Job?: { readonly 'Task Count'?: number; readonly Tasks?: readonly { readonly Node?: string }[] } };
  readonly Plans?: readonly PlanNode[];
}

function citusScans(node: PlanNode): PlanNode[] {
  return [...(node['Custom Plan Provider'] === undefined ? [] : [node]), ...(node.Plans ?? []).flatMap(citusScans)];
}

/**
 * How many shards Citus sends `statement` to, from its EXPLAIN: 1 for a router plan; a count of
 * tasks, or a word saying why, for any other (subplans, INSERT … SELECT through the coordinator,
 * 'no Citus scan': no distributed or reference table at all, run on the coordinator alone).
 */
export async function routerTasks(db: Queryable, statement: Statement): Promise<number | string> {
  const result = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`explain (format json) ${statement.text}`, [...(statement.values ?? [])]);
  const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (plan === undefined) return 'no plan';
  const scans = citusScans(plan);
  if (scans.length === 0) return 'no Citus scan';
  if (scans.length !== 1) return `${scans.length} Citus scans`;
  const [scan] = scans as [PlanNode];
  if (scan['Custom Plan Provider'] !== 'Citus Adaptive') return String(scan['Custom Plan Provider']);
  const query = scan['Distributed Query'];
  if ((query?.Subplans?.length ?? 0) > 0) return 'subplans';
  return query?.Job?.['Task Count'] ?? 'no task count';
}

/** The port of the node each task of `statement`'s Citus scan runs on, from its EXPLAIN. */
export async function taskPorts(db: Queryable, statement: Statement): Promise<number[]> {
  const result = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`explain (format json) ${statement.text}`, [...(statement.values ?? [])]);
  const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
  const tasks = (plan === undefined ? [] : citusScans(plan)).flatMap((scan) => scan['Distributed Query']?.Job?.Tasks ?? []);
  return tasks.map((task) => Number(/port=(\d+)/.exec(task.Node ?? '')?.[1]));
}
