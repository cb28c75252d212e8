/**
 * `embeddedData` (src/store/embeddedPostgres.ts) finds the data folder that `destroy` removes: the
 * one `connection.json` records, but only where clusters are put — inside the folder, or a
 * `data-<32 hex>` folder under /var/lib/missionweave — so that an edited `connection.json` cannot
 * make `destroy` remove any other folder. Files only: no PostgreSQL runs here.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedData } from '../src/store/embeddedPostgres.js';
import { isServiceDataDirectory } from '../src/store/postgresServiceUser.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-embedded-data-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function dbFolder(name: string, dataDirectory?: string): string {
  const db = join(scratch, name, 'db');
  mkdirSync(db, { recursive: true });
  if (dataDirectory !== undefined) writeFileSync(join(db, 'connection.json'), JSON.stringify({ port: 5432, user: 'u', password: 'p', dataDirectory }));
  return db;
}

describe('embeddedData', () => {
  it('is the recorded data folder inside the home, with no postmaster when none runs', () => {
    const db = dbFolder('inside', join(scratch, 'inside', 'db', 'pgdata'));
    mkdirSync(join(db, 'pgdata'));
    expect(embeddedData(db)).toEqual({ dataDirectory: join(db, 'pgdata') });
  });

  it('never names a recorded folder outside the home and the service root', () => {
    const elsewhere = join(scratch, 'precious');
    mkdirSync(elsewhere);
    expect(embeddedData(dbFolder('tampered', elsewhere))).toBeUndefined();
    expect(embeddedData(dbFolder('root', '/'))).toBeUndefined();
    expect(embeddedData(dbFolder('climbing', join(scratch, 'climbing', 'db', '..', '..', 'precious')))).toBeUndefined();
  });

  it('is nothing for a home without a database folder or data', () => {
    expect(embeddedData(join(scratch, 'absent', 'db'))).toBeUndefined();
    expect(embeddedData(dbFolder('empty'))).toBeUndefined();
  });

  it('accepts under the service root only the data-<hash> folders it makes', () => {
    expect(isServiceDataDirectory('/var/lib/missionweave/data-0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isServiceDataDirectory('/var/lib/missionweave/postgres-17.10.0')).toBe(false);
    expect(isServiceDataDirectory('/var/lib/missionweave')).toBe(false);
    expect(isServiceDataDirectory('/var/lib/missionweave/x/data-0123456789abcdef0123456789abcdef')).toBe(false);
  });
});
