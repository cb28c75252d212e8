/**
 * The PoC's named checks, one per §22 property and one per injection, judged from the Groups'
 * committed Events (and, for what only an Agent's runtime knows — its Scheduler's decisions and
 * what each job was handed — from what its process reported). Each check is PASS or FAIL with
 * the figures it rests on.
 */

import type { GroupLog } from '../faults/history.js';
import { checkWork } from '../faults/workChecker.js';
import { starvationBound } from '#src/client/runtime/schedulerRanking.js';
import type { Journal } from './agentProcesses.js';
import type { FromWorker } from './pocMessages.js';
import { stageOfGoal, type MissionPlan } from './pocPlan.js';
import type { Injection } from './pocScenario.js';
import type { PocWorld } from './pocWorld.js';

export interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

export interface PocEvent {
  readonly groupId: string;
  readonly sequence: number;
  readonly kind: string;
  readonly actor: { readonly type: string; readonly id: string };
  readonly payload: Record<string, unknown> & { workItem?: { workItemId: string; state: string; contract: { goal: string; dependencyWorkItemIds: string[]; requestedUrgency: string }; owner?: { agentId: string; ownershipEpoch: number } } };
  readonly occurredAt?: string;
}

export function parsed(log: GroupLog): PocEvent[] {
  return log.events.map((e) => JSON.parse(e.text) as PocEvent);
}

/** Stage name → WorkItem ID, from the Group's `work.authorized` Events. */
function stagesIn(events: readonly PocEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) if (e.kind === 'work.authorized' && e.payload.workItem !== undefined) out.set(stageOfGoal(e.payload.workItem.contract.goal) ?? '?', e.payload.workItem.workItemId);
  return out;
}

function firstSeq(events: readonly PocEvent[], kind: string, workItemId: string, actorId?: string): number | undefined {
  return events.find((e) => e.kind === kind && e.payload.workItem?.workItemId === workItemId && (actorId === undefined || e.actor.id === actorId))?.sequence;
}

function verifiedSeq(events: readonly PocEvent[], workItemId: string): number | undefined {
  return events.find((e) => e.payload.workItem?.workItemId === workItemId && e.payload.workItem.state === 'verified')?.sequence;
}

export interface CheckInput {
  readonly world: PocWorld;
  readonly logs: { readonly A: GroupLog; readonly B: GroupLog; readonly S: GroupLog | undefined };
  readonly plans: Readonly<Record<string, MissionPlan>>;
  readonly journal: Journal;
  readonly injections: readonly Injection[];
  readonly replays: Readonly<Record<string, { ok: boolean; detail: string }>>;
}

type Decision = Extract<FromWorker, { type: 'decision' }>;

export function runChecks(input: CheckInput): Check[] {
  const { world, logs, journal } = input;
  const checks: Check[] = [];
  const check = (name: string, pass: boolean, detail: string) => checks.push({ name, pass, detail });
  const A = parsed(logs.A);
  const B = parsed(logs.B);
  const S = logs.S === undefined ? [] : parsed(logs.S);
  const stagesA = stagesIn(A);
  const stagesB = stagesIn(B);
  const shared = world.agents['w-shared'].id;
  const coordinatorIds = new Set([world.agents['coord-a'].id, world.agents['coord-a2'].id, world.agents['coord-b'].id, world.agents['coord-sec'].id]);
  const human = world.owner.principal.id;

  // Two concurrent Missions, one Worker shared.
  const startsBy = (events: PocEvent[], id: string) => events.filter((e) => e.kind === 'work.started' && e.actor.id === id);
  const span = (events: PocEvent[]) => [Date.parse(events.find((e) => e.kind === 'work.started')?.occurredAt ?? ''), Date.parse([...events].reverse().find((e) => e.kind === 'work.result.accepted')?.occurredAt ?? '')] as const;
  const [a0, a1] = span(A);
  const [b0, b1] = span(B);
  check('two-concurrent-missions-shared-worker', startsBy(A, shared).length > 0 && startsBy(B, shared).length > 0 && a0 < b1 && b0 < a1, `shared Worker starts: A ${startsBy(A, shared).length}, B ${startsBy(B, shared).length}; Missions' work overlapped in time: ${a0 < b1 && b0 < a1}`);

  // The graph: every stage a WorkItem, its dependencies in its contract, started only after they were verified.
  const planA = input.plans['A'] as MissionPlan;
  const graphProblems: string[] = [];
  for (const stage of planA.stages) {
    const id = stagesA.get(stage.key);
    if (id === undefined) {
      graphProblems.push(`${stage.key} never authorized`);
      continue;
    }
    const doc = A.find((e) => e.kind === 'work.authorized' && e.payload.workItem?.workItemId === id)?.payload.workItem;
    const deps = stage.deps.map((d) => stagesA.get(d));
    if (JSON.stringify([...(doc?.contract.dependencyWorkItemIds ?? [])].sort()) !== JSON.stringify([...deps].sort())) graphProblems.push(`${stage.key}: contract dependencies differ from the graph`);
    const began = stage.child === true ? A.find((e) => e.kind === 'mission.child.created')?.sequence : firstSeq(A, 'work.started', id);
    for (const dep of deps) {
      const done = dep === undefined ? undefined : verifiedSeq(A, dep);
      if (began === undefined || done === undefined || done > began) graphProblems.push(`${stage.key} began (#${String(began)}) before its dependency was verified (#${String(done)})`);
    }
  }
  check('mission-graph-stages', graphProblems.length === 0 && stagesA.size >= planA.stages.length, graphProblems.length === 0 ? `Mission A: ${[...stagesA.keys()].join(' → ')}, each started after its dependencies were verified, then human Approval` : graphProblems.join('; '));

  // The child security Mission.
  const child = A.find((e) => e.kind === 'mission.child.created');
  const securityId = stagesA.get('security-review');
  const childApproved = S.find((e) => e.kind === 'mission.approved');
  check('child-security-mission', child !== undefined && childApproved !== undefined && securityId !== undefined && verifiedSeq(A, securityId) !== undefined && S.some((e) => e.kind === 'work.result.accepted'),
    `child Group ${S.length} Events; its work verified: ${S.some((e) => e.kind === 'work.result.accepted')}; approved by its owner (the parent Coordinator): ${childApproved !== undefined && coordinatorIds.has(childApproved.actor.id)}; parent WorkItem verified: ${securityId !== undefined && verifiedSeq(A, securityId) !== undefined}`);

  // The shared Worker's runtime: per-Group queues, weighted-fair picks, several slots, preemption.
  const decisions = journal.of('w-shared').flatMap((e) => (e.message.type === 'decision' ? [e.message as Decision] : []));
  const groupsHeldAtOnce = Math.max(0, ...decisions.map((d) => new Set(Object.keys(d.held).map((k) => k.split('|')[0])).size));
  check('per-group-queues', groupsHeldAtOnce >= 2, `the shared Worker held work of ${groupsHeldAtOnce} Groups at once, each in its own ready queue`);
  const picks = decisions.filter((d) => d.decision['type'] === 'run.started');
  const contested = picks.filter((d) => ((d.decision['earners'] as string[] | undefined) ?? []).length >= 2);
  const weights = new Map([[world.missions.A.groupId, 2], [world.missions.B.groupId, 1]]);
  let longestWait = 0;
  const waits = new Map<string, number>();
  for (const p of contested) {
    for (const g of p.decision['earners'] as string[]) waits.set(g, g === p.decision['groupId'] ? 0 : (waits.get(g) ?? 0) + 1);
    longestWait = Math.max(longestWait, ...waits.values());
  }
  const bound = starvationBound([2, 1], 1);
  const pickedGroups = new Set(contested.map((p) => p.decision['groupId']));
  check('weighted-fair-scheduling', contested.length >= 2 && pickedGroups.size >= 2 && longestWait < bound, `${contested.length} picks with Groups of weights ${[...weights.values()].join(':')} both eligible; both picked: ${pickedGroups.size >= 2}; longest wait ${longestWait} picks (bound ${bound})`);
  const maxRunning = Math.max(0, ...decisions.map((d) => Object.entries(d.held).filter(([k]) => k.endsWith('|running')).reduce((n, [, v]) => n + v, 0)));
  check('several-execution-slots', maxRunning >= 2, `the shared Worker ran up to ${maxRunning} WorkItems at once on its 2 slots`);
  const requested = decisions.filter((d) => d.decision['type'] === 'preemption.requested');
  const yielded = decisions.filter((d) => d.decision['type'] === 'run.yielded');
  const yieldedIds = new Set(yielded.map((d) => String(d.decision['workItemId'])));
  const all = [...A, ...B, ...S];
  const checkpointed = all.filter((e) => e.kind === 'work.checkpointed' && yieldedIds.has(e.payload.workItem?.workItemId ?? ''));
  const resumedVerified = [...yieldedIds].filter((id) => verifiedSeq(all, id) !== undefined);
  check('safe-checkpoint-preemption', requested.length >= 1 && yielded.length >= 1 && checkpointed.length >= 1 && resumedVerified.length === yieldedIds.size,
    `${requested.length} preemption request(s), ${yielded.length} yield(s) at a safe durable checkpoint, ${checkpointed.length} work.checkpointed Event(s); every yielded WorkItem resumed and verified: ${resumedVerified.length}/${yieldedIds.size}`);

  // Isolation: what each job was handed.
  const jobs = journal.entries.flatMap((e) => (e.message.type === 'job' && e.message.phase === 'started' ? [e.message.facts] : []));
  // A parent Mission and its child name each other in their own records (the child's link, §14):
  // that is each one's own context. Any other Group named is a leak.
  const childId = input.logs.S === undefined ? undefined : input.logs.S.groupId;
  const lineage = (g: string): string[] => (childId === undefined ? [g] : g === childId ? [g, world.missions.A.groupId] : g === world.missions.A.groupId ? [g, childId] : [g]);
  const leakedContext = jobs.filter((j) => j.contextGroups.some((g) => !lineage(j.groupId).includes(g)));
  const withContext = jobs.filter((j) => j.contextPackages > 0).length;
  check('context-isolation', jobs.length > 0 && leakedContext.length === 0, `${jobs.length} jobs (${withContext} handed Context Packages); each was handed only its own Group's context, a child Mission's naming its parent and the parent's its child (${leakedContext.length} named another Group)`);
  // Each job's capability token (§12), from the Authorization Service under its own lease: for its
  // own Group and WorkItem; asked for another Mission's Group, the job's token() refuses.
  const withToken = jobs.filter((j) => j.tokenGroup !== undefined);
  const wrongToken = withToken.filter((j) => j.tokenGroup !== j.groupId || j.tokenWorkItem !== j.workItemId);
  const noToken = jobs.filter((j) => j.tokenGroup === undefined);
  const unexplained = noToken.filter((j) => j.tokenError !== 'lease-lost');
  const asked = jobs.filter((j) => j.foreignTokenRefused !== null);
  const foreignGiven = asked.filter((j) => j.foreignTokenRefused === false);
  check('credential-isolation', withToken.length > 0 && wrongToken.length === 0 && unexplained.length === 0 && asked.length > 0 && foreignGiven.length === 0,
    `${withToken.length}/${jobs.length} jobs obtained a capability token, each for its own Group and WorkItem (${wrongToken.length} otherwise; ${noToken.length - unexplained.length} lost the lease first${unexplained.length === 0 ? '' : `, ${unexplained.length} failed: ${unexplained.map((j) => j.tokenError).join(',')}`}); another Mission's Group's token refused ${asked.length - foreignGiven.length}/${asked.length}`);

  // Coordinator review of every result.
  // A WorkItem promoted to a child Mission is settled by the Authority on the child's Approval (§14), not reviewed.
  const accepted = [...A, ...B, ...S].filter((e) => e.kind === 'work.result.accepted');
  const settledByChild = accepted.filter((e) => e.actor.type === 'service' && e.payload.workItem?.workItemId === securityId);
  const verifiedItems = accepted.filter((e) => !settledByChild.includes(e));
  const reviewed = verifiedItems.filter((e) => coordinatorIds.has(e.actor.id) && JSON.stringify(e.payload['evidence'] ?? '').includes('reviewer_assessment'));
  check('coordinator-review', verifiedItems.length > 0 && reviewed.length === verifiedItems.length, `${reviewed.length}/${verifiedItems.length} results accepted by their Coordinator with reviewer_assessment Evidence (and ${settledByChild.length} settled by the Authority on the child Mission's Approval)`);

  // The human's Approval, through the console's HTTPS API.
  const approvals = [A, B].map((events) => events.filter((e) => e.kind === 'mission.approved'));
  check('human-approval-https', approvals.every((a) => a.length === 1 && a[0]?.actor.id === human), `Missions A and B each approved once by the human MissionOwner (signed Approval via POST /v1/commands): ${approvals.map((a) => a.length).join(', ')}`);

  // History and fencing.
  const replayProblems = Object.entries(input.replays).filter(([, r]) => !r.ok);
  check('replay-verify', Object.keys(input.replays).length >= 3 && replayProblems.length === 0, replayProblems.length === 0 ? `missionweave replay --verify passed for ${Object.keys(input.replays).length} Groups` : replayProblems.map(([g, r]) => `${g}: ${r.detail}`).join('; '));
  const work = checkWork([logs.A, logs.B, ...(logs.S === undefined ? [] : [logs.S])]);
  const duplicates = duplicateDecisions(all);
  check('no-stale-or-duplicate-side-effect', work.fencing.length === 0 && work.offers.length === 0 && duplicates.length === 0,
    `fencing violations ${work.fencing.length}, offers won twice ${work.offers.length}, duplicated decisions ${duplicates.length} (judged ${JSON.stringify(work.judged)})${[...work.fencing, ...work.offers].slice(0, 3).map((v) => `; ${v.rule}: ${v.detail}`).join('')}${duplicates.slice(0, 3).map((d) => `; ${d}`).join('')}`);

  for (const made of input.injections) checks.push(judgeInjection(made, { A, B, S, world, journal, stagesA, stagesB }));
  return checks;
}

/** Decisions that must happen once: a stage authorized twice, a result accepted twice, a Mission approved twice at one revision. */
function duplicateDecisions(events: readonly PocEvent[]): string[] {
  const seen = new Map<string, number>();
  for (const e of events) {
    const id = e.payload.workItem?.workItemId;
    const key = e.kind === 'work.authorized' || e.kind === 'work.result.accepted' ? `${e.kind} ${String(id)}` : e.kind === 'mission.approved' ? `${e.kind} ${e.groupId}` : undefined;
    if (key !== undefined) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

interface Context {
  readonly A: PocEvent[];
  readonly B: PocEvent[];
  readonly S: PocEvent[];
  readonly world: PocWorld;
  readonly journal: Journal;
  readonly stagesA: Map<string, string>;
  readonly stagesB: Map<string, string>;
}

export { judgeInjection } from './pocInjectionChecks.js';
import { judgeInjection } from './pocInjectionChecks.js';
export type { Context as InjectionContext };
