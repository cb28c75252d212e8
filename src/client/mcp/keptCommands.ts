/**
 * What the work tools of `missionweave mcp` answer when the Authority cannot be reached (§11.5):
 * the Command that ends the run is signed and kept in the runtime's durable outbox
 * (outboxCommands.ts answers COMMAND_QUEUED), and the model is told it is queued, with its Action
 * ID, instead of a refusal. On reconnect the outbox is sent and the Command, fenced by the new
 * Session, rebased onto it under a new Action ID (§19) and applied once (outboxRebase.ts);
 * `work_held` notices say what became of it, naming both Action IDs (heldWork.ts `outboxAnswered`).
 */

import type { JsonObject, ProtocolEvent } from '../documents.js';
import { isAgentError } from '../errors.js';
import type { WorkExecution } from '../workExecution.js';

export type Ended = { readonly event: ProtocolEvent; readonly queued?: undefined } | { readonly queued: { readonly actionId: string } };

/** The Command's Event, or that it was kept to be sent on reconnect (the execution's renewals stop then). */
export async function sentOrKept(execution: WorkExecution, sending: Promise<ProtocolEvent>): Promise<Ended> {
  try {
    return { event: await sending };
  } catch (error) {
    if (!isAgentError(error) || error.code !== 'COMMAND_QUEUED' || error.relatedActionId === undefined) throw error;
    execution.stop();
    return { queued: { actionId: error.relatedActionId } };
  }
}

/** The tool's answer for a kept Command. */
export function queuedResult(workItemId: string, kind: string, queued: { readonly actionId: string }): JsonObject {
  return {
    workItemId,
    queued: true,
    kind,
    actionId: queued.actionId,
    note: 'The Authority cannot be reached now: this Command is signed and kept, and is sent when the connection is back (if the new Session fences it, re-signed under a new Action ID that work_held names next to this one); work_held tells what became of it.',
  };
}
