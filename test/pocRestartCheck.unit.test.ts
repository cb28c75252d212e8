/**
 * The PoC's `worker-restart-and-queue-rebuild` check (tools/poc/pocInjectionChecks.ts), judged on
 * hand-built Events and Worker reports. Each WorkItem the restarted shared Worker rebuilt with a
 * safe checkpoint must be resumed from it, or have had nothing left to resume: its job submitted
 * before the SIGKILL, and the re-check found it ended. CI on 2026-12-05 (02:20 UTC) failed the
 * check on the second case (resumable 2, resumed 1, the other withdrawn as verified), which the
 * check then counted as a resumable run not resumed.
 */

import { describe, expect, it } from 'vitest';
import { Journal } from '../tools/poc/agentProcesses.js';
import type { InjectionContext, PocEvent } from '../tools/poc/pocChecks.js';
import { judgeInjection } from '../tools/poc/pocInjectionChecks.js';
import type { FromWorker, JobFacts } from '../tools/poc/pocMessages.js';
import type { Injection } from '../tools/poc/pocScenario.js';
import type { PocWorld } from '../tools/poc/pocWorld.js';

const G = 'urn:missionweave:group:b';
const SHARED = 'urn:missionweave:agent:w-shared';
const COORD = 'urn:missionweave:agent:coord-b';
const SPAWNED_AT = 1_000_000;
/** R1 ran with a checkpoint, R2 ran with one and had submitted, Q1 and Q2 were queued, L ran without one. */
const [R1, R2, Q1, Q2, L] = ['r1', 'r2', 'q1', 'q2', 'l'].map((n) => `urn:missionweave:work-item:${n}`) as [string, string, string, string, string];

const world = { agents: { 'w-shared': { id: SHARED }, 'w-a': { id: 'urn:missionweave:agent:w-a' }, 'w-b': { id: 'urn:missionweave:agent:w-b' } } } as unknown as PocWorld;

function event(sequence: number, kind: string, actor: string, workItemId: string, state: string, payload: Record<string, unknown> = {}): PocEvent {
  const workItem = { workItemId, state, contract: { goal: 'g', dependencyWorkItemIds: [], requestedUrgency: 'routine' }, owner: { agentId: SHARED, ownershipEpoch: 1 } };
  return { groupId: G, sequence, kind, actor: { type: 'agent', id: actor }, payload: { ...payload, workItem } };
}

/** The Group's Events: each WorkItem accepted once by the shared Worker and verified; L blocked as lost on restart first. */
function groupEvents(options: { r2Submitted: boolean }): PocEvent[] {
  const events: PocEvent[] = [];
  for (const id of [R1, R2, Q1, Q2, L]) events.push(event(events.length + 1, 'work.offer.accepted', SHARED, id, 'queued'));
  events.push(event(events.length + 1, 'work.blocked', SHARED, L, 'blocked', { reason: 'runtime-session-lost: the Worker restarted' }));
  for (const id of [R1, R2, Q1, Q2, L]) {
    if (id === R2 && !options.r2Submitted) continue;
    events.push(event(events.length + 1, 'work.submitted', SHARED, id, 'submitted'));
    events.push(event(events.length + 1, 'work.result.accepted', COORD, id, 'verified'));
  }
  return events;
}

function started(workItemId: string, resumedFrom: number | null): FromWorker {
  const facts: JobFacts = { groupId: G, workItemId, stage: 's', contextGroups: [G], contextPackages: 1, tokenGroup: G, tokenWorkItem: workItemId, foreignTokenRefused: true, resumedFrom };
  return { type: 'job', phase: 'started', facts };
}

/** The shared Worker's reports: what the killed process started, then the restarted one's runs. */
function journalOf(beforeKill: readonly FromWorker[], afterSpawn: readonly FromWorker[]): Journal {
  const journal = new Journal(() => undefined);
  beforeKill.forEach((message, i) => journal.entries.push({ at: SPAWNED_AT - 1_000 + i, who: 'w-shared', message }));
  afterSpawn.forEach((message, i) => journal.entries.push({ at: SPAWNED_AT + 10 + i, who: 'w-shared', message }));
  return journal;
}

function judge(events: PocEvent[], journal: Journal, resumableIds: readonly string[] = [R1, R2]) {
  const made: Injection = {
    name: 'worker-restart-and-queue-rebuild',
    done: true,
    facts: {
      heldBefore: { [`${G}|running`]: 3, [`${G}|ready`]: 2 },
      recovery: { resumable: resumableIds.length, queued: 2, lost: 1, held: {}, resumableIds },
      restartedAt: SPAWNED_AT,
    },
  };
  const context: InjectionContext = { A: [], B: events, S: [], world, journal, stagesA: new Map(), stagesB: new Map() };
  return judgeInjection(made, context);
}

const killedRuns = [started(R1, null), started(R2, null), started(L, null)];

describe('the PoC check of the shared Worker restart', () => {
  it('passes when one resumable WorkItem resumed from its checkpoint and the other had submitted before the kill (CI 2026-12-05 02:20 UTC)', () => {
    const check = judge(groupEvents({ r2Submitted: true }), journalOf(killedRuns, [started(R1, 3), started(Q1, null), started(Q2, null), started(L, null)]));
    expect(check.detail).toContain('resumed from their checkpoint 1, already submitted before the kill (withdrawn by the re-check, verified) 1');
    expect(check.pass).toBe(true);
  });

  it('passes when both resumable WorkItems resumed from their checkpoints', () => {
    const check = judge(groupEvents({ r2Submitted: true }), journalOf(killedRuns, [started(R1, 3), started(R2, 1), started(Q1, null), started(Q2, null), started(L, null)]));
    expect(check.detail).toContain('resumed from their checkpoint 2, already submitted before the kill (withdrawn by the re-check, verified) 0');
    expect(check.pass).toBe(true);
  });

  it('fails when a resumable WorkItem was neither resumed nor submitted', () => {
    const check = judge(groupEvents({ r2Submitted: false }), journalOf(killedRuns, [started(R1, 3), started(Q1, null), started(Q2, null), started(L, null)]));
    expect(check.pass).toBe(false);
  });

  it('fails when a resumable WorkItem was started again from the beginning, not from its checkpoint', () => {
    const check = judge(groupEvents({ r2Submitted: true }), journalOf(killedRuns, [started(R1, 3), started(R2, null), started(Q1, null), started(Q2, null), started(L, null)]));
    expect(check.pass).toBe(false);
  });

  it('does not count a start from a checkpoint that the killed process reported', () => {
    const check = judge(groupEvents({ r2Submitted: false }), journalOf([...killedRuns, started(R2, 1)], [started(R1, 3), started(Q1, null), started(Q2, null), started(L, null)]));
    expect(check.pass).toBe(false);
  });

  it('fails when the restarted process names fewer resumable WorkItems than it counted', () => {
    const made: Injection = {
      name: 'worker-restart-and-queue-rebuild',
      done: true,
      facts: { heldBefore: { [`${G}|running`]: 3, [`${G}|ready`]: 2 }, recovery: { resumable: 2, queued: 2, lost: 1, held: {}, resumableIds: [R1] }, restartedAt: SPAWNED_AT },
    };
    const journal = journalOf(killedRuns, [started(R1, 3), started(Q1, null), started(Q2, null), started(L, null)]);
    expect(judgeInjection(made, { A: [], B: groupEvents({ r2Submitted: true }), S: [], world, journal, stagesA: new Map(), stagesB: new Map() }).pass).toBe(false);
  });
});
