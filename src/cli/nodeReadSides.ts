/**
 * The read sides of the Extension Profiles this node's code implements (Parley v1, disput v0),
 * as `app/nodeProfiles.ts` lists their kinds: the one place the CLI, `serve` and `mcp` learn
 * which profile routes, MCP tools and verbs to offer.
 */

import { disputReadSide } from './disput/disputReadSide.js';
import { parleyReadSide } from './parley/parleyReadSide.js';
import type { ProfileReadSide } from './readSide.js';

export const NODE_READ_SIDES: readonly ProfileReadSide[] = [parleyReadSide, disputReadSide];
