/**
 * Every tool `missionweave mcp` offers, in the order `tools/list` and `get_manifest` name them:
 * the node's Extension Profiles' tools (their read sides, composed by the CLI), the Mission tools
 * and the WorkItem tools over one Worker and the Agent runtime that holds its work. One list, so
 * what the CLI serves is what the size budget of `tools/list` is measured on
 * (test/mcpTools.unit.test.ts).
 */

import type { HeldWork } from './heldWork.js';
import { missionTools } from './missionTools.js';
import type { McpToolSpec } from './toolSpec.js';
import { workTools } from './workTools.js';

export function mcpTools(held: HeldWork, profileTools: readonly McpToolSpec[]): McpToolSpec[] {
  return [...profileTools, ...missionTools(), ...workTools(held)];
}
