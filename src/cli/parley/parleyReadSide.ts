/**
 * Parley v1's read side (docs/parley.md): its HTTPS reads (the manifest, a thread, its log, the
 * reader's inbox; `transport/parley/parleyRoutes.ts` over `app/parley/parleyReads.ts`) and its
 * MCP tools (`client/mcp/parley/parleyTools.ts`). Its actions are signed Commands, served by the
 * core's `POST /v1/commands` and COMMAND frames.
 */

import type { ProfileReadSide } from '../readSide.js';

export const parleyReadSide: ProfileReadSide = {
  name: 'Parley v1',
  routes: async (slices) => {
    const [{ ParleyReads }, { parleyRoutes }] = await Promise.all([import('../../app/parley/parleyReads.js'), import('../../transport/parley/parleyRoutes.js')]);
    return parleyRoutes(new ParleyReads(slices));
  },
  mcpTools: async () => (await import('../../client/mcp/parley/parleyTools.js')).parleyTools(),
};
