/**
 * `missionweave replay <groupId> --dir DIR [--after N] [--verify]`: the Group's Events as JSON
 * lines, in sequence order. `--verify` also checks every Event signature and its stored
 * First-Admission Record, contiguity from sequence 1, and that replaying the Events from nothing
 * reproduces the stored state; it reports on stderr and exits 1 on any mismatch.
 */

import { verifyGroupHistory } from '../app/verifyGroupHistory.js';
import { readEventsAfter } from '../store/sql/events.js';
import { readLastSequence } from '../store/sql/groups.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

export async function replayCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', after: 'value', verify: 'boolean' });
  const [groupId] = args.positionals;
  if (groupId === undefined || args.positionals.length !== 1) throw new UsageError('usage: missionweave replay <groupId> --dir DIR [--after N] [--verify]');
  const afterText = stringOption(args, 'after') ?? '0';
  if (!/^\d+$/.test(afterText)) throw new UsageError('--after must be a non-negative integer');
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const running = await openAuthority(home);
  try {
    const last = await readLastSequence(running.pool, groupId);
    if (last === undefined) {
      process.stderr.write(`GROUP_NOT_FOUND: no Group ${groupId}\n`);
      return 1;
    }
    let after = Number(afterText);
    for (;;) {
      const page = await readEventsAfter(running.pool, groupId, after, 1_000);
      if (page.length === 0) break;
      process.stdout.write(page.map((e) => `${e.document}\n`).join(''));
      after = page[page.length - 1]?.sequence ?? after;
    }
    if (!args.options.has('verify')) return 0;
    const report = await verifyGroupHistory(running.pool, groupId, {
      registry: running.authority.registry.current.registry,
      schemas: running.authority.schemas,
      authority: home.settings().services.authority,
      // The node's profiles too (Parley v1): their Events fold into the replayed state.
      kinds: running.authority.kinds,
    });
    for (const problem of report.problems) process.stderr.write(`${problem}\n`);
    process.stderr.write(`verified ${report.events} Events of ${groupId}: ${report.problems.length === 0 ? 'OK' : `${report.problems.length} problem(s)`}\n`);
    return report.problems.length === 0 && report.events === last ? 0 : 1;
  } finally {
    await running.close();
  }
}
