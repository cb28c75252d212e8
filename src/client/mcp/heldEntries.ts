/**
 * What the MCP work tools say about held work (heldWork.ts): one entry per WorkItem, from the
 * runtime's projection row (status, Ownership Epoch, blocked reason, last durable checkpoint) and
 * what this process knows (the WorkItem as last seen, the execution), and the runtime's refusals
 * as tool refusals a model can act on.
 */

import type { OutboxCommand } from '../runtime/projectionOutbox.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { WorkStatus } from '../runtime/projectionWork.js';
import type { SchedulerRefusal } from '../runtime/schedulerTypes.js';
import type { WorkExecution } from '../workExecution.js';
import { workLeasesOf, type WorkItemDocument } from '../workDocuments.js';
import { ToolRefusal } from './toolSpec.js';

export interface HeldEntry {
  readonly groupId: string;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  /** The runtime's record: queued, running, paused (at a checkpoint), blocked; `ended` once done here. */
  readonly held: WorkStatus | 'ended';
  /** The WorkItem as last seen from the Authority; absent while a restart has not re-read it. */
  readonly workItem?: WorkItemDocument;
  /** The current (or last) execution in this process. */
  readonly execution?: WorkExecution;
  readonly blockedReason?: string;
  readonly lastCheckpoint?: { readonly at: string; readonly data: unknown };
}

/** Something the model is told once: work withdrawn or reported while it was not looking. */
export interface HeldNotice {
  readonly groupId: string;
  readonly workItemId: string;
  /** `delivered` / `refused`: a Command left in the outbox by an earlier process was answered (`actionId`). */
  readonly what: 'withdrawn' | 'blocked' | 'delivered' | 'refused';
  readonly why: string;
  readonly actionId?: string;
  /** The Action ID the model was told (`COMMAND_QUEUED`), when a §19 rebase sent the Command as `actionId`. */
  readonly rebasedFrom?: string;
  readonly at: string;
}

function parsed(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return data.toString('utf8');
  }
}

/** A refusal of the runtime as a tool's refusal, with a reason a model can act on. */
export function runtimeRefusal(refusal: SchedulerRefusal, workItemId: string): ToolRefusal {
  const reason = refusal.code.replace(/-/g, '_');
  const hint = refusal.code === 'no-free-slot' ? ': every slot holds started work; work_checkpoint, work_submit or work_fail one first' : '';
  return new ToolRefusal('INVALID_ARGUMENT', reason, `the runtime refused WorkItem ${workItemId}: ${refusal.code}${hint}`);
}

/** The runtime's record of one held WorkItem, with what this process knows of it; undefined when not held. */
export function heldEntry(runtime: AgentRuntime, workItemId: string, groupId: string | undefined, execution: WorkExecution | undefined, document: WorkItemDocument | undefined): HeldEntry | undefined {
  const group = groupId ?? runtime.state.work[workItemId]?.groupId;
  const row = group === undefined ? undefined : runtime.projection.work.get(group, workItemId);
  if (row === undefined) return undefined;
  const workItem = execution?.workItem ?? document;
  return {
    groupId: row.groupId,
    workItemId,
    ownershipEpoch: row.ownershipEpoch,
    held: row.status,
    ...(workItem === undefined ? {} : { workItem }),
    ...(execution === undefined ? {} : { execution }),
    ...(row.blockedReason === undefined ? {} : { blockedReason: row.blockedReason }),
    ...(row.checkpoint === undefined ? {} : { lastCheckpoint: { at: row.checkpoint.at, data: parsed(row.checkpoint.data) } }),
  };
}

/** When the ownership lease ends: the start-by deadline while queued (§11.3). */
export function ownershipExpiresAt(workItem: WorkItemDocument): string | undefined {
  return workLeasesOf(workItem).ownership?.expiresAt;
}

/** What the model is told of a Command sent again from the outbox and answered; undefined for one not about a WorkItem, or unanswered. */
export function outboxNotice(command: OutboxCommand): HeldNotice | undefined {
  const { payload } = JSON.parse(command.bytes.toString('utf8')) as { payload?: { workItemId?: unknown } };
  const workItemId = payload?.workItemId;
  if (typeof workItemId !== 'string' || (command.state !== 'acked' && command.state !== 'refused')) return undefined;
  const what = command.state === 'acked' ? 'delivered' : 'refused';
  const as = command.rebasedFrom === undefined ? '' : ` as ${command.actionId} (rebased from ${command.rebasedFrom})`;
  const why = command.state === 'acked' ? `${command.kind} was accepted${as}${command.eventId === undefined ? '' : ` (${command.eventId})`}` : `${command.kind} was refused${as} ${command.refusal ?? ''}`.trim();
  const from = command.rebasedFrom === undefined ? {} : { rebasedFrom: command.rebasedFrom };
  return { groupId: command.groupId, workItemId, what, why, actionId: command.actionId, ...from, at: new Date().toISOString() };
}
