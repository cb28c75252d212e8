/**
 * `missionweave profile add FILE --dir DIR` and `missionweave profile list --dir DIR`: an
 * operator registers an Organization-approved Extension Profile document (§18) and lists the
 * registered ones. `add` admits the document like any Signed Document — its approval signature
 * against the Registry, the key valid now too, a First-Admission Record — before storing it
 * (app/extensionProfiles.ts) and prints the stored profile as one JSON line; a refused
 * document prints its §19 code on stderr and exits 1. Registering the same document twice is
 * harmless (`"registered": false` the second time).
 */

import { readFileSync } from 'node:fs';
import { listProfiles, registerProfile } from '../app/extensionProfiles.js';
import { NODE_CODE_PROFILES } from '../app/nodeProfiles.js';
import type { ProfileRow } from '../store/sql/extensionProfiles.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

const USAGE = 'usage: missionweave profile add FILE --dir DIR | missionweave profile list --dir DIR';

function summary(row: ProfileRow): Record<string, unknown> {
  const { profileUri, version, majorVersion, critical, signingHash, registeredAt } = row;
  return { profileUri, version, majorVersion, critical, signingHash, registeredAt };
}

export async function profileCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value' });
  const [action, file, ...rest] = args.positionals;
  const adding = action === 'add' && file !== undefined && rest.length === 0;
  if (!adding && !(action === 'list' && file === undefined)) throw new UsageError(USAGE);
  const bytes = adding ? readFileSync(file) : undefined;
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const running = await openAuthority(home);
  try {
    if (bytes === undefined) {
      process.stdout.write((await listProfiles(running.pool)).map((row) => `${JSON.stringify(summary(row))}\n`).join(''));
      return 0;
    }
    const { authority } = running;
    const outcome = await registerProfile({ pool: running.pool, authority, codeProfiles: NODE_CODE_PROFILES }, bytes);
    if (!outcome.ok) {
      process.stderr.write(`${outcome.error.code}: ${outcome.error.message}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify({ ...summary(outcome.profile), registered: outcome.inserted })}\n`);
    return 0;
  } finally {
    await running.close();
  }
}
