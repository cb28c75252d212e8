/**
 * `missionweave tree MISSION --dir DIR`: the Mission tree below a Mission (§14), as one JSON
 * document — each Mission's state, Coordinator, budget and use, WorkItem counts and children,
 * breadth first from MISSION. The operator reads any tree; Agents read theirs over HTTPS
 * (`GET /v1/groups/{groupId}/mission-tree`). Exit 1 when no such Mission is stored.
 */

import { readMissionTree } from '../app/policy/readMissionTree.js';
import { openAuthority } from '../server.js';
import { readMissionDocuments } from '../store/sql/aggregates.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

const USAGE = 'usage: missionweave tree MISSION --dir DIR';

export async function treeCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value' });
  const [missionId] = args.positionals;
  if (missionId === undefined || args.positionals.length !== 1) throw new UsageError(USAGE);
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const running = await openAuthority(home);
  try {
    const [found] = await readMissionDocuments(running.pool, [missionId]);
    if (found === undefined) {
      process.stderr.write(`no Mission ${missionId}\n`);
      return 1;
    }
    const read = await readMissionTree(running.pool, running.authority.kinds, found.groupId, { kind: 'operator' });
    if (!read.ok) {
      process.stderr.write(`${read.error.code}: ${read.error.message}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(read.tree)}\n`);
    return 0;
  } finally {
    await running.close();
  }
}
