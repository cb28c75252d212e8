/**
 * What `missionweave disput` answers when the node, the Agent's session, git or the run lock
 * refuses it: one line for people and one JSON line, each with a stable `reason`, exit 1 — never a
 * stack trace (issue 29: « Races and refusals are answers, not crashes »). An error none of these
 * raised is a bug of the command, and is left to `main`'s report.
 */

import { GitError } from '../../client/disput/gitFacts.js';
import { RunLockedError } from '../../client/disput/runLock.js';
import { AgentClientError, MissionWeaveError } from '../../client/errors.js';
import { ToolRefusal } from '../../client/mcp/toolSpec.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { CLOSE } from '../../transport/limits.js';

export interface Refused {
  readonly reason: string;
  readonly message: string;
  /** The §19 code (or the client's own code) when the refusal carried one. */
  readonly code?: string;
  readonly details?: JsonObject;
}

const REPLACED = 'another run opened a session as this Agent (Session Epoch fencing, §6.3), and this one was closed: its turn may not have been sent; `disput status` says whether the turn is recorded';

/** The refusal `error` stands for, or undefined for an error that is a bug. */
export function refusedBy(error: unknown): Refused | undefined {
  if (error instanceof MissionWeaveError) {
    if (error.code === 'AUTH_STALE_SESSION') return { reason: 'session_replaced', code: error.code, message: REPLACED };
    const reason = error.details?.['reason'];
    return { reason: typeof reason === 'string' ? reason : error.code.toLowerCase(), code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details as JsonObject }) };
  }
  if (error instanceof AgentClientError) {
    if (error.closeCode === CLOSE.sessionReplaced) return { reason: 'session_replaced', code: error.code, message: REPLACED };
    return { reason: error.code.toLowerCase(), code: error.code, message: error.message };
  }
  if (error instanceof ToolRefusal) return { reason: error.reason, code: error.code, message: error.message };
  if (error instanceof RunLockedError) return { reason: error.reason, message: error.message };
  if (error instanceof GitError) return { reason: 'git_failed', message: error.message };
  return undefined;
}
