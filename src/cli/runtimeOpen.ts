/**
 * Opens an Agent's runtime for a command (`missionweave mcp`; `worker` opens its own), turning
 * the projection's refusals into the CLI's one-line errors and exit codes (docs/cli.md), never a
 * trace. In every case the file is left as it was: nothing is overwritten, so nothing the runtime
 * acknowledged is lost.
 *
 * - `locked` (another process holds the projection, one writer per file: a `worker` or another
 *   `mcp` for the same Agent) and `io`: exit 69 (unavailable);
 * - `corrupt`, `schema-too-new`, `other-agent`: exit 65 (data error), naming the file;
 * - a slot count other than the one the projection was created with: exit 2 (usage).
 */

import { AgentClientError } from '../client/errors.js';
import { projectionPathIn } from '../client/runtime/projection.js';
import { isProjectionError } from '../client/runtime/projectionErrors.js';
import { openAgentRuntime, type AgentRuntime } from '../client/runtime/runtime.js';
import { MAX_SLOTS } from '../client/runtime/schedulerLimits.js';
import type { Home } from '../home/home.js';
import { DataError, UnavailableError, UsageError } from '../home/usageError.js';

/** `--slots`: a whole number from 1 to MAX_SLOTS; 1 when absent. */
export function slotsOption(text: string | undefined): number {
  if (text === undefined) return 1;
  const slots = Number(text);
  if (!/^\d{1,4}$/.test(text) || slots < 1 || slots > MAX_SLOTS) throw new UsageError(`--slots is a whole number from 1 to ${MAX_SLOTS}`);
  return slots;
}

/** The Agent's runtime on `DIR/runtime/HANDLE/projection.sqlite`, or a one-line CLI error. */
export function openRuntimeOf(home: Home, handle: string, agentId: string, slots: number, command: string): AgentRuntime {
  const path = projectionPathIn(home.path('runtime', handle));
  try {
    return openAgentRuntime({ path, agentId, slots });
  } catch (error) {
    const prefix = `missionweave ${command}`;
    if (isProjectionError(error)) {
      switch (error.reason) {
        case 'locked':
          throw new UnavailableError(`${prefix}: ${path} is held by another process (a running \`missionweave worker\` or \`mcp\` as ${handle}); one process writes an Agent's projection: stop that one first`);
        case 'io':
          throw new UnavailableError(`${prefix}: ${error.message}`);
        case 'corrupt':
        case 'schema-too-new':
        case 'other-agent':
          throw new DataError(`${prefix}: ${error.message}; the file was left as it is (nothing overwritten); restore it from a backup, or move it aside to start with no held work`);
        default:
          throw error;
      }
    }
    if (error instanceof AgentClientError && error.code === 'INVALID_ARGUMENT') throw new UsageError(`${prefix}: ${error.message} (give --slots as it was)`);
    throw error;
  }
}
