/** One named check per injection of the PoC's failure suite, judged from the Groups' Events. */

import type { Check, InjectionContext as Context, PocEvent } from './pocChecks.js';
import type { Injection } from './pocScenario.js';

const LEASE_CLOSED = 'ext.missionweave.core.work_lease_closed';

function of(events: readonly PocEvent[], workItemId: string): PocEvent[] {
  return events.filter((e) => e.payload.workItem?.workItemId === workItemId || e.payload['workItemId'] === workItemId);
}

function verified(events: readonly PocEvent[], workItemId: string): PocEvent | undefined {
  return of(events, workItemId).find((e) => e.payload.workItem?.state === 'verified');
}

function epochOf(e: PocEvent): number | undefined {
  const epoch = e.payload['ownershipEpoch'] ?? e.payload.workItem?.owner?.ownershipEpoch;
  return typeof epoch === 'number' ? epoch : undefined;
}

export function judgeInjection(made: Injection, c: Context): Check {
  const name = `injection: ${made.name}`;
  if (!made.done) return { name, pass: false, detail: `not carried out (${JSON.stringify(made.facts)})` };
  const ids = c.world.agents;
  switch (made.name) {
    case 'duplicate-event-delivery': {
      const authorized = c.A.filter((e) => e.kind === 'work.authorized').length;
      const unique = new Set(c.A.filter((e) => e.kind === 'work.authorized').map((e) => e.payload.workItem?.workItemId)).size;
      const accepted = c.A.filter((e) => e.kind === 'work.result.accepted').length;
      const acceptedUnique = new Set(c.A.filter((e) => e.kind === 'work.result.accepted').map((e) => e.payload.workItem?.workItemId)).size;
      const pass = Number(made.facts['redelivered']) > 0 && authorized === unique && accepted === acceptedUnique;
      return { name, pass, detail: `${String(made.facts['redelivered'])} Events handed to Mission A's Coordinator a second time; WorkItems authorized ${authorized} (distinct ${unique}), results accepted ${accepted} (distinct ${acceptedUnique})` };
    }
    case 'temporary-group-disconnection': {
      const id = String(made.facts['workItemId']);
      const starts = of(c.A, id).filter((e) => e.kind === 'work.started' && e.actor.id === ids['w-a'].id);
      const closed = of(c.A, id).filter((e) => e.kind === LEASE_CLOSED);
      const resumed = c.journal.of('w-a').some((e) => e.message.type === 'job' && e.message.phase === 'started' && e.message.facts.workItemId === id && e.message.facts.resumedFrom !== null);
      const done = verified(c.A, id);
      const sameOwner = new Set(starts.map(epochOf)).size === 1;
      const pass = starts.length >= 2 && sameOwner && done !== undefined && resumed;
      return { name, pass, detail: `${String(made.facts['stage'])}: connection cut 1.5 s; lease closures ${closed.length} (${closed.map((e) => String(e.payload['cause'])).join(',')}); started ${starts.length}× under one Ownership Epoch, resumed from its checkpoint: ${resumed}; verified: ${done !== undefined}` };
    }
    case 'high-priority-arrival': {
      const id = String(made.facts['workItemId']);
      const hotfix = of(c.B, id);
      const critical = hotfix.find((e) => e.kind === 'work.authorized')?.payload.workItem?.contract.requestedUrgency === 'critical';
      const decisions = c.journal.of('w-shared').flatMap((e) => (e.message.type === 'decision' && e.at >= Number(made.facts['at']) ? [e.message.decision] : []));
      const requested = decisions.filter((d) => d['type'] === 'preemption.requested');
      const yielded = decisions.filter((d) => d['type'] === 'run.yielded');
      const pass = critical && requested.length >= 1 && yielded.length >= 1 && verified(c.B, id) !== undefined;
      return { name, pass, detail: `a critical WorkItem arrived while both slots were busy: preemption requested ${requested.length}, yielded at a safe checkpoint ${yielded.length}; the arrival verified: ${verified(c.B, id) !== undefined}` };
    }
    case 'lease-expiry-and-reassignment': {
      const id = String(made.facts['workItemId']);
      const events = of(c.B, id);
      const first = events.find((e) => e.kind === 'work.offer.accepted' && e.actor.id === ids['w-b'].id);
      const expired = events.filter((e) => e.kind === LEASE_CLOSED && e.payload['cause'] === 'expired');
      const taken = events.find((e) => e.kind === 'work.offer.accepted' && e.actor.id === ids['w-shared'].id);
      const done = verified(c.B, id);
      const late = taken === undefined ? [] : events.filter((e) => e.sequence > taken.sequence && e.actor.id === ids['w-b'].id);
      const oldEpoch = first === undefined ? undefined : epochOf(first);
      const newEpoch = taken === undefined ? undefined : epochOf(taken);
      const pass = first !== undefined && expired.length >= 1 && newEpoch !== undefined && oldEpoch !== undefined && newEpoch > oldEpoch && done?.payload.workItem?.owner?.agentId === ids['w-shared'].id && late.length === 0;
      return { name, pass, detail: `${String(made.facts['stage'])}: w-b paused (SIGSTOP) at Ownership Epoch ${String(oldEpoch)}; leases closed as expired by the Authority: ${expired.length}; re-offered and taken by the shared Worker at epoch ${String(newEpoch)}; verified under it: ${done !== undefined}; w-b's Commands accepted after: ${late.length}; its late attempt answered ${String(made.facts['lateRefusal'] ?? 'nothing (it stopped)')}` };
    }
    case 'worker-restart-and-queue-rebuild': {
      const recovery = made.facts['recovery'] as { resumable: number; queued: number; lost: number; held: Record<string, number>; resumableIds: string[] } | undefined;
      const heldBefore = made.facts['heldBefore'] as Record<string, number>;
      const before = Object.values(heldBefore).reduce((n, v) => n + v, 0);
      const rebuilt = recovery === undefined ? 0 : recovery.resumable + recovery.queued + recovery.lost;
      const restartedAt = Number(made.facts['restartedAt']);
      const again = c.journal.of('w-shared').flatMap((e) => (e.at >= restartedAt && e.message.type === 'job' && e.message.phase === 'started' ? [e.message.facts] : []));
      const twice = [...c.A, ...c.B, ...c.S].filter((e) => e.kind === 'work.offer.accepted' && e.actor.id === ids['w-shared'].id).map((e) => e.payload.workItem?.workItemId);
      const reaccepted = twice.length - new Set(twice).size;
      const all = [...c.A, ...c.B, ...c.S];
      // Each WorkItem rebuilt with a safe checkpoint is either resumed from it, or had nothing
      // left to resume: its job had submitted before the SIGKILL (sent then, or kept in the
      // outbox and sent on restart), so the re-check found it ended and withdrew it. Such a one
      // is submitted by the shared Worker, verified, and not started again.
      const resumableIds = recovery?.resumableIds ?? [];
      const resumedIds = new Set(again.filter((f) => f.resumedFrom !== null).map((f) => f.workItemId));
      const startedIds = new Set(again.map((f) => f.workItemId));
      const resumed = resumableIds.filter((id) => resumedIds.has(id));
      const submittedBefore = resumableIds.filter((id) => !startedIds.has(id) && of(all, id).some((e) => e.kind === 'work.submitted' && e.actor.id === ids['w-shared'].id) && verified(all, id) !== undefined);
      // Work that ran without a safe checkpoint: reported to its Coordinator (work.blocked,
      // runtime-session-lost), unblocked by it, then run again and verified.
      const lost = [...new Set(all.filter((e) => e.kind === 'work.blocked' && e.actor.id === ids['w-shared'].id && JSON.stringify(e.payload).includes('runtime-session-lost')).map((e) => e.payload.workItem?.workItemId ?? String(e.payload['workItemId'])))];
      const lostVerified = lost.filter((id) => verified(all, id) !== undefined);
      const settled = resumableIds.length === (recovery?.resumable ?? -1) && resumed.length + submittedBefore.length === resumableIds.length;
      const pass = before >= 1 && rebuilt === before && again.length >= 1 && settled && reaccepted === 0 && lost.length === (recovery?.lost ?? 0) && lostVerified.length === lost.length;
      return { name, pass, detail: `SIGKILLed holding ${before} WorkItem(s) ${JSON.stringify(heldBefore)}; the restarted process rebuilt ${rebuilt} from its projection (resumable ${String(recovery?.resumable)}, queued ${String(recovery?.queued)}, lost ${String(recovery?.lost)}); started again ${again.length}; of the resumable, resumed from their checkpoint ${resumed.length}, already submitted before the kill (withdrawn by the re-check, verified) ${submittedBefore.length}; reported runtime-session-lost to the Coordinator ${lost.length}, unblocked and verified ${lostVerified.length}; offers accepted again ${reaccepted}` };
    }
    case 'coordinator-failure-and-epoch-replacement': {
      const assigned = c.A.find((e) => e.kind === 'mission.coordinator.assigned');
      const coordinator = (assigned?.payload['mission'] as { coordinator?: { agentId: string; coordinatorEpoch: number } } | undefined)?.coordinator;
      const byOld = assigned === undefined ? [] : c.A.filter((e) => e.sequence > assigned.sequence && e.actor.id === ids['coord-a'].id);
      const byNew = assigned === undefined ? [] : c.A.filter((e) => e.sequence > assigned.sequence && e.actor.id === ids['coord-a2'].id);
      const pass = coordinator?.agentId === ids['coord-a2'].id && coordinator.coordinatorEpoch === 2 && byOld.length === 0 && byNew.length >= 1 && c.A.some((e) => e.kind === 'mission.approved');
      return { name, pass, detail: `Mission A's Coordinator SIGKILLed; the human assigned a replacement over HTTPS at Coordinator Epoch ${String(coordinator?.coordinatorEpoch)}; Events by the old one after: ${byOld.length}, by the new one: ${byNew.length}; Mission approved: ${c.A.some((e) => e.kind === 'mission.approved')}` };
    }
    case 'human-change-request': {
      const asked = c.A.find((e) => e.kind === 'mission.changes_requested');
      const rework = c.stagesA.get('rework-1');
      const reworkAuthorized = rework === undefined ? undefined : of(c.A, rework).find((e) => e.kind === 'work.authorized');
      const approved = c.A.find((e) => e.kind === 'mission.approved');
      const pass = asked !== undefined && asked.actor.id === c.world.owner.principal.id && reworkAuthorized !== undefined && reworkAuthorized.sequence > asked.sequence && rework !== undefined && verified(c.A, rework) !== undefined && approved !== undefined && approved.sequence > asked.sequence;
      return { name, pass, detail: `the human sent revision ${String(asked?.payload['missionRevision'])} back over HTTPS; a rework stage was authorized after it and verified: ${rework !== undefined && verified(c.A, rework) !== undefined}; approved at Mission revision ${String((approved?.payload['mission'] as { revision?: number } | undefined)?.revision)}` };
    }
    default:
      return { name, pass: false, detail: 'unknown injection' };
  }
}
