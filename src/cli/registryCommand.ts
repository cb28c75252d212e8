/**
 * `missionweave registry export --dir DIR [--out FILE]`: the signed Registry snapshot that
 * `GET /v1/registry` serves (app/registryPublication.ts), read from the database: every key
 * binding's public key, `validFrom` and validity history at one revision, and the context
 * generator Agent, signed by the Registry service. `--out` writes exactly the bytes the node
 * serves at that revision; printed, a line feed follows them. A third party loads it as stage-4
 * evidence to verify Events offline, and an Agent pinning it knows whose Context Packages to
 * accept; it holds no private key. With `--out`, one line on stderr says what was written where.
 */

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home } from '../home/home.js';

export async function registryCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', out: 'value' });
  if (args.positionals.length !== 1 || args.positionals[0] !== 'export') throw new UsageError('usage: missionweave registry export --dir DIR [--out FILE]');
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const running = await openAuthority(home);
  try {
    const { text, revision, document } = await running.authority.registryExport();
    const out = stringOption(args, 'out');
    if (out === undefined) process.stdout.write(`${text}\n`);
    else {
      writeFileSync(out, text);
      const bindings = document.registry.bindings.length;
      process.stderr.write(`wrote the Registry at revision ${revision} (${bindings} key binding${bindings === 1 ? '' : 's'}, no private key) to ${resolve(out)}\n`);
    }
    return 0;
  } finally {
    await running.close();
  }
}
