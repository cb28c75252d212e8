/**
 * disput v0's read side (docs/disput.md): the `missionweave disput` verb, which reads a Group's
 * Events and a git repository and records turns as signed Commands (`disputCommand.ts`).
 */

import type { ProfileReadSide } from '../readSide.js';

export const disputReadSide: ProfileReadSide = {
  name: 'disput v0',
  cliVerbs: {
    disput: {
      usage: `  disput <next|status|check|play|decide "TEXT"> --group G --as HANDLE [--dir DIR] [--repo PATH]
                                      disput v0 in a git repository: who plays next, items and
                                      backlog, the §8 check, record the committed turn, the
                                      human's decision
`,
      load: async () => (await import('./disputCommand.js')).disputCommand,
    },
  },
};
