/**
 * `missionweave archive GROUP --dir DIR` (operator, §7.4): builds the Group's final snapshot,
 * signs it and the `ext.missionweaveprotocol.core.group_archive` Command as the Group Authority,
 * and submits it through the Command pipeline. Prints the two archival Events as JSON lines and
 * the stored snapshot's hash on stderr, or the §19 error (exit 1): a live Mission's Group is
 * refused, and so is one that changed while its snapshot was built (run it again).
 */

import { archiveGroup } from '../app/archiveGroup.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

export async function archiveCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value' });
  const [groupId] = args.positionals;
  if (groupId === undefined || args.positionals.length !== 1) throw new UsageError('usage: missionweave archive <groupId> --dir DIR');
  const running = await openAuthority(new Home(stringOption(args, 'dir') ?? '.missionweave'));
  try {
    const { submission, snapshotHash } = await archiveGroup(running.authority, running.pool, groupId);
    if (!submission.ok) {
      process.stderr.write(`${submission.error.code}: ${submission.error.message}\n`);
      return 1;
    }
    process.stdout.write(submission.events.map((e) => `${e.text}\n`).join(''));
    process.stderr.write(`snapshot ${snapshotHash}\n`);
    return 0;
  } finally {
    await running.close();
  }
}
