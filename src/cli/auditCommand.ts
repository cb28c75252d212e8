/**
 * `missionweave audit --dir DIR [--group G] [--since T] [--limit N]`: the protected Policy Log
 * of refused Signed Documents (§6.4) as JSON lines, oldest first — each record's first failing
 * semantic stage, reason, §19 code, transport and address, and what the refused document
 * claimed (untrusted). It prints the first N records at or after T; to read on, pass the last
 * printed `occurredAt` as the next `--since` (one line on stderr says how many it printed and
 * whether to read on). Reading it needs the operator directory: the reasons it shows are never
 * sent to callers.
 */

import { AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT } from '../app/policyLogLimits.js';
import { parseTimestamp } from '../protocol/timestamp.js';
import { openAuthority } from '../server.js';
import { readPolicyLog } from '../store/sql/policyLog.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

const USAGE = 'usage: missionweave audit --dir DIR [--group G] [--since TIMESTAMP] [--limit N]';

function limitOption(text: string | undefined): number {
  if (text === undefined) return AUDIT_DEFAULT_LIMIT;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > AUDIT_MAX_LIMIT) throw new UsageError(`--limit must be 1–${AUDIT_MAX_LIMIT}`);
  return Number(text);
}

/** What `audit` did, in one line on stderr (stdout stays JSON lines): how many, and how to read on. */
function auditSummary(count: number, limit: number, last: string | undefined): string {
  const what = `${count} refused document${count === 1 ? '' : 's'} of the Policy Log printed, oldest first`;
  if (count < limit || last === undefined) return count === 0 ? 'no refused documents in the Policy Log for this selection' : `${what}; that is all`;
  return `${what}; there may be more: read on with --since ${last}`;
}

export async function auditCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', group: 'value', since: 'value', limit: 'value' });
  if (args.positionals.length !== 0) throw new UsageError(USAGE);
  const since = stringOption(args, 'since');
  if (since !== undefined && parseTimestamp(since) === null) throw new UsageError('--since must be an RFC 3339 UTC timestamp, e.g. 2026-01-31T00:00:00Z');
  const limit = limitOption(stringOption(args, 'limit'));
  const groupId = stringOption(args, 'group');
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const running = await openAuthority(home);
  try {
    const rows = await readPolicyLog(running.pool, {
      ...(groupId === undefined ? {} : { groupId }),
      ...(since === undefined ? {} : { since }),
      limit,
      keep: 'oldest',
    });
    process.stdout.write(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    process.stderr.write(`${auditSummary(rows.length, limit, rows.at(-1)?.occurredAt)}\n`);
    return 0;
  } finally {
    await running.close();
  }
}
