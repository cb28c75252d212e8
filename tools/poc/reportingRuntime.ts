/**
 * The PoC's view into a Worker's runtime: the SDK's AgentRuntime (runtime.ts), unchanged in what
 * it decides and saves, with every scheduler decision it makes also handed to `report` (with
 * what it holds, per Group and status, after it). The runtime host (hostRuntime.ts) drives it
 * as it drives any runtime; the orchestrator judges the Scheduler from these reports.
 */

import type { AgentRuntime as Runtime } from '#src/client/runtime/runtime.js';
import { AgentRuntime, openAgentRuntime, type AdmitRequest, type AgentRuntimeOptions, type RuntimeResult } from '#src/client/runtime/runtime.js';
import type { GroupPolicy, RunOutcome, SchedulerEvent } from '#src/client/runtime/schedulerTypes.js';

export type DecisionReport = (events: readonly SchedulerEvent[], held: Readonly<Record<string, number>>) => void;

export class ReportingRuntime extends AgentRuntime {
  private constructor(
    base: Runtime,
    clock: () => number,
    private readonly report: DecisionReport,
  ) {
    super(base.projection, base.state, base.recovery, clock);
  }

  /** Opens the runtime on its projection (settling a restart, as openAgentRuntime does), reporting. */
  static open(options: AgentRuntimeOptions & { readonly clock: () => number }, report: DecisionReport): ReportingRuntime {
    return new ReportingRuntime(openAgentRuntime(options), options.clock, report);
  }

  /** WorkItems held, counted per `groupId|status`. */
  held(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const w of Object.values(this.state.work)) counts[`${w.groupId}|${w.status}`] = (counts[`${w.groupId}|${w.status}`] ?? 0) + 1;
    return counts;
  }

  override schedule(): readonly SchedulerEvent[] {
    const events = super.schedule();
    this.told(events);
    return events;
  }

  override setGroupPolicy(groupId: string, policy: GroupPolicy): RuntimeResult {
    return this.reported(super.setGroupPolicy(groupId, policy));
  }

  override admit(request: AdmitRequest): RuntimeResult {
    return this.reported(super.admit(request));
  }

  override checkpoint(workItemId: string, executionLeaseId: string, data: string | Uint8Array, safe: boolean): RuntimeResult {
    return this.reported(super.checkpoint(workItemId, executionLeaseId, data, safe));
  }

  override end(workItemId: string, outcome: RunOutcome, reason?: string): RuntimeResult {
    return this.reported(super.end(workItemId, outcome, reason));
  }

  override unblock(workItemId: string): RuntimeResult {
    return this.reported(super.unblock(workItemId));
  }

  override withdraw(workItemId: string): RuntimeResult {
    return this.reported(super.withdraw(workItemId));
  }

  /** Events of the restart the projection settled on open (runs interrupted). */
  reportRecovery(): void {
    this.told(this.recovery.interrupted);
  }

  private reported(result: RuntimeResult): RuntimeResult {
    if (result.ok) this.told(result.events);
    return result;
  }

  private told(events: readonly SchedulerEvent[]): void {
    if (events.length > 0) this.report(events, this.held());
  }
}
