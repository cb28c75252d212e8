/**
 * Every tool `missionweave mcp` offers, in the order `tools/list` and `get_manifest` name them:
 * Parley's, the Mission tools and the WorkItem tools over one Worker. One list, so what the CLI
 * serves is what the size budget of `tools/list` is measured on (test/mcpTools.unit.test.ts).
 */

import type { MissionWeaveWorker } from '../worker.js';
import { missionTools } from './missionTools.js';
import { parleyTools } from './parleyTools.js';
import type { McpToolSpec } from './toolSpec.js';
import { workTools } from './workTools.js';

export function mcpTools(worker: MissionWeaveWorker): McpToolSpec[] {
  return [...parleyTools(), ...missionTools(), ...workTools(worker)];
}
