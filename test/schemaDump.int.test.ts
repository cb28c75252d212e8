/**
 * The migrated schema must equal the committed dump (`migrations/schema.sql`), as graphile-worker
 * checks its own: a migration that changes the schema changes the dump in the same commit, so
 * review sees the resulting schema, not only the steps. `npm run schema:dump` rewrites it.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { dumpSchema, REGENERATE, SCHEMA_FILE } from './support/schemaDump.js';

/** A unified-style listing of the lines only one side has, in order. */
function lineDiff(committed: string, migrated: string): string {
  const before = committed.split('\n');
  const after = migrated.split('\n');
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  const lines = [...before.filter((l) => !inAfter.has(l)).map((l) => `- ${l}`), ...after.filter((l) => !inBefore.has(l)).map((l) => `+ ${l}`)];
  return lines.length > 0 ? lines.join('\n') : '(the same lines in another order)';
}

it('the migrated schema equals the committed dump', async () => {
  const db = await createTestDatabase({ poolSize: 1 });
  const migrated = await dumpSchema(db.pool);
  if (process.env['MW_WRITE_SCHEMA'] === '1') writeFileSync(SCHEMA_FILE, migrated);
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  if (committed !== migrated) {
    expect.fail(`the migrations no longer produce ${SCHEMA_FILE} (- committed, + migrated):\n${lineDiff(committed, migrated)}\nIf the change is intended, run \`${REGENERATE}\` and commit the file.`);
  }
});
