/**
 * An Extension Profile's read side (§18): what a profile adds beside its Command and Event kinds
 * — HTTPS routes (served after the core's), MCP tools (offered by `missionweave mcp` before the
 * core's) and CLI verbs — registered at the composition roots (`nodeReadSides.ts` for the node's
 * own profiles) rather than edited into core files. A profile's reads are computed over its
 * slice of a Group, which the node hands out by the one read rule (`app/profileSlices.ts`).
 * Each part is loaded when asked for, so that a CLI verb that needs none of them stays light.
 */

import type { ProfileSlices } from '../app/profileSlices.js';
import type { McpToolSpec } from '../client/mcp/toolSpec.js';
import type { Route } from '../transport/routeTable.js';

export type CliVerb = (argv: readonly string[]) => number | Promise<number>;

export interface ProfileCliVerb {
  /** Its lines in `missionweave`'s usage, each ending with a newline. */
  readonly usage: string;
  load(): Promise<CliVerb>;
}

export interface ProfileReadSide {
  readonly name: string;
  /** HTTPS routes over the node's profile slices, served after the core's. */
  routes?(slices: ProfileSlices): Promise<readonly Route[]>;
  /** Tools `missionweave mcp` offers for the profile. */
  mcpTools?(): Promise<readonly McpToolSpec[]>;
  /** `missionweave <verb>` commands. */
  readonly cliVerbs?: Readonly<Record<string, ProfileCliVerb>>;
}

/** Every read side's routes, in the order of `sides`. */
export async function readSideRoutes(sides: readonly ProfileReadSide[], slices: ProfileSlices): Promise<Route[]> {
  const routes: Route[] = [];
  for (const side of sides) routes.push(...((await side.routes?.(slices)) ?? []));
  return routes;
}

/** Every read side's MCP tools, in the order of `sides`. */
export async function readSideTools(sides: readonly ProfileReadSide[]): Promise<McpToolSpec[]> {
  const tools: McpToolSpec[] = [];
  for (const side of sides) tools.push(...((await side.mcpTools?.()) ?? []));
  return tools;
}

/** Every read side's CLI verbs; a verb named twice is a composition error. */
export function readSideVerbs(sides: readonly ProfileReadSide[]): Map<string, ProfileCliVerb> {
  const verbs = new Map<string, ProfileCliVerb>();
  for (const side of sides) {
    for (const [name, verb] of Object.entries(side.cliVerbs ?? {})) {
      if (verbs.has(name)) throw new Error(`two read sides name the CLI verb ${name}`);
      verbs.set(name, verb);
    }
  }
  return verbs;
}
