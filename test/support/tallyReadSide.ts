/**
 * The tally test profile's read side (`tallyProfile.ts`): one HTTPS read, a Group's tallies, and
 * one MCP tool that makes the same read for an Agent. Both are registered the way any profile's
 * are (a `ProfileReadSide` handed to the node and to the MCP server), with no line changed in
 * core files: the read goes through the node's generic profile slice, by the one read rule.
 */

import { z } from 'zod';
import { wireError } from '../../src/app/wireError.js';
import type { ProfileReadSide } from '../../src/cli/readSide.js';
import { tool } from '../../src/client/mcp/toolSpec.js';
import { decodedParam } from '../../src/transport/routeTable.js';
import { TALLY_URI, tallyProfile, type TallyState } from './tallyProfile.js';

/** `GET /v1/groups/{groupId}/tallies`: the Group's tallies, for any reader the read rule lets read it. */
export const TALLIES_PATH = /^\/v1\/groups\/([^/]+)\/tallies$/;

export const talliesPath = (groupId: string): string => `/v1/groups/${encodeURIComponent(groupId)}/tallies`;

export const tallyReadSide: ProfileReadSide = {
  name: 'tally (test)',
  routes: async (slices) => [
    {
      method: 'GET',
      path: TALLIES_PATH,
      auth: 'reader',
      handle: async ({ io, params }, reader) => {
        const groupId = decodedParam(params[0]);
        if (groupId === undefined) return io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
        const read = await slices.profileSlice(groupId, reader.principal, TALLY_URI);
        if (!read.ok) return io.fail(read.error);
        const state = (read.value.state as TallyState | undefined) ?? tallyProfile.initialState();
        return io.send(200, JSON.stringify({ groupId, totals: state.totals }));
      },
    },
  ],
  mcpTools: async () => [
    tool({
      name: 'tally_totals',
      description: 'The tallies kept in a Group you are a member of.',
      input: { groupId: z.string().min(1).max(200) },
      readOnly: true,
      run: (args, context) => context.read(talliesPath(args.groupId)),
    }),
  ],
};
