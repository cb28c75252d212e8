/**
 * `missionweave destroy --dir DIR`: removes a home and its embedded PostgreSQL data. Run as
 * root, that data lives outside the home (/var/lib/missionweave/data-…, postgresServiceUser.ts),
 * so deleting the folder alone would leave it behind unnoticed; this removes both, and says what
 * it removed. It refuses a folder that is not a home (exit 66) and a home a node serves now
 * (exit 69: stop the node first); a PostgreSQL server left running on the data without a node (a
 * killed node's) is stopped first. A configured database (DATABASE_URL, `databaseUrl`) is not
 * the home's to remove: it stays, and the command says so. `--dir` has no default here.
 */

import { readFileSync, rmSync } from 'node:fs';
import { Home } from '../home/home.js';
import { runningNode } from '../home/runningNode.js';
import { UnavailableError } from '../home/usageError.js';
import { embeddedData } from '../store/embeddedPostgres.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { redactedUrl } from './dataLocation.js';

const USAGE = 'usage: missionweave destroy --dir DIR';

/** How long a leftover postmaster gets to shut down (fast shutdown) before we give up. */
const POSTMASTER_STOP_MS = 30_000;

/** Whether `pid` runs: an exited process its parent has not reaped yet (a zombie, "Z" in /proc) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (not Linux): the signal answered
  }
}

/** Fast shutdown (SIGINT) of a postmaster nobody serves with; resolves once it is gone. */
async function stopPostmaster(pid: number, dataDirectory: string): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    throw new UnavailableError(`PostgreSQL (pid ${pid}) still runs on ${dataDirectory} and cannot be stopped by this user; stop it, then run destroy again`);
  }
  const deadline = Date.now() + POSTMASTER_STOP_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new UnavailableError(`PostgreSQL (pid ${pid}) on ${dataDirectory} did not stop within ${POSTMASTER_STOP_MS / 1000} s; stop it, then run destroy again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function destroyCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value' });
  const dir = stringOption(args, 'dir');
  if (args.positionals.length !== 0 || dir === undefined) throw new UsageError(USAGE);
  const home = new Home(dir);
  home.config(); // a folder that is not a home is refused (exit 66), never removed
  const node = runningNode(home);
  if (node !== undefined) {
    throw new UnavailableError(`a node (pid ${node.pid}, ${node.https}) is running for ${home.directory}; stop it first, then run destroy again`);
  }
  const data = embeddedData(home.path('db'));
  if (data?.postmasterPid !== undefined) await stopPostmaster(data.postmasterPid, data.dataDirectory);
  if (data !== undefined) rmSync(data.dataDirectory, { recursive: true, force: true });
  const configured = home.databaseUrl();
  rmSync(home.directory, { recursive: true, force: true });
  const what = data === undefined ? '' : ` and its embedded PostgreSQL data ${data.dataDirectory}`;
  process.stdout.write(`removed ${home.directory}${what}\n`);
  if (configured !== undefined) process.stderr.write(`the configured database ${redactedUrl(configured)} was not removed: it is not the home's own\n`);
  return 0;
}
