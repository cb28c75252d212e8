/**
 * Bad input to the local projection (runtime/projection.ts) on real files: a corrupt file, a
 * second writer, a full disk, a file from a newer runtime or another Agent, and a file at
 * schema version 1 migrated to the current one in place. Each is a ProjectionError with its reason and the
 * file's path; none loses what was written before.
 */

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { projectionFiles } from './support/projectionFiles.js';
import { type ProjectionOptions } from '../src/client/runtime/projection.js';
import { ProjectionError } from '../src/client/runtime/projectionErrors.js';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../src/client/runtime/projectionSchema.js';
import { MAX_PROJECTION_BYTES } from '../src/client/limits.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const G1 = 'urn:missionweave:group:g1';
const T0 = Date.parse('2026-07-15T00:00:00.000Z');

const { home, open } = projectionFiles(AGENT, T0);

/** A signed-looking Command: the outbox reads its header and keeps its bytes. */
function command(n: number, padding = 0): string {
  return JSON.stringify({ actionId: `urn:uuid:a-${n}`, groupId: G1, kind: 'message.post', payload: { text: 'x'.repeat(padding) }, signature: { keyId: 'k', value: 'v' } });
}

/** What opening `path` throws. */
function refusalOf(path: string, options: Partial<ProjectionOptions> = {}): ProjectionError {
  try {
    open(path, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectionError);
    return error as ProjectionError;
  }
  throw new Error(`${path} opened`);
}

describe('a corrupt projection file', () => {
  it('of garbage bytes is refused as corrupt, naming the file, and left as it was', () => {
    const path = home();
    const garbage = Buffer.alloc(16_384, 0x5a);
    writeFileSync(path, garbage);
    const error = refusalOf(path);
    expect(error).toMatchObject({ code: 'PROJECTION_FAILED', reason: 'corrupt', path });
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/not a SQLite database/);
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it('with a damaged page is refused as corrupt at open, not at the first read of that page', () => {
    const path = home();
    const projection = open(path);
    for (let n = 0; n < 20; n += 1) projection.outbox.add(command(n, 2_000));
    projection.close();
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize * 3, pageSize * 6);
    writeFileSync(path, bytes);
    expect(refusalOf(path)).toMatchObject({ reason: 'corrupt', path });
  });
});

describe('one writer', () => {
  it('refuses a second opening of the same file while the first holds it', () => {
    const path = home();
    const first = open(path);
    first.outbox.add(command(1));
    const error = refusalOf(path);
    expect(error).toMatchObject({ reason: 'locked', path });
    expect(error.message).toMatch(/another process holds this projection/);
    first.close();
    expect(open(path).outbox.count()).toBe(1);
  });

  it('keeps another process out of the file until it closes', () => {
    const path = home();
    const projection = open(path);
    projection.outbox.add(command(1));
    // Another OS process, with SQLite alone: it can neither read nor write the held file.
    const probe = `const D = require('better-sqlite3'); try { console.log(new D(process.argv[1], { timeout: 0 }).prepare('SELECT count(*) AS n FROM outbox').get().n); } catch (e) { console.log(e.code); }`;
    const other = () => execFileSync(process.execPath, ['-e', probe, path], { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' }).trim();
    expect(other()).toBe('SQLITE_BUSY');
    projection.close();
    expect(other()).toBe('1');
  });

  it('fails every call after close as closed', () => {
    const projection = open(home());
    projection.close();
    expect(() => projection.outbox.toSend()).toThrow(expect.objectContaining({ reason: 'closed' }));
    expect(() => projection.inbox.receive({ eventId: 'e', groupId: G1, sequence: 1 })).toThrow(expect.objectContaining({ reason: 'closed' }));
  });
});

describe('a full disk', () => {
  it(`refuses the write that does not fit (maxBytes, default MAX_PROJECTION_BYTES = ${MAX_PROJECTION_BYTES}), rolls it back, and keeps acknowledged rows`, () => {
    const path = home();
    const roomy = open(path);
    roomy.outbox.add(command(1, 500));
    roomy.outbox.markAcked('urn:uuid:a-1', 'urn:uuid:e-1');
    roomy.outbox.add(command(2, 500));
    roomy.cursors.set(G1, 7);
    roomy.close();

    // A bound below the file's size holds it at its current pages: no write may grow it.
    const full = open(path, { limits: { maxBytes: 1 } });
    const error = (() => {
      try {
        full.outbox.add(command(3, 200_000));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'PROJECTION_FAILED', reason: 'disk-full', path });
    expect((error as Error).message).toMatch(/SQLITE_FULL/);
    expect(full.outbox.get('urn:uuid:a-3')).toBeUndefined();
    expect(full.outbox.get('urn:uuid:a-1')).toMatchObject({ state: 'acked', eventId: 'urn:uuid:e-1' });
    expect(full.outbox.toSend().map((c) => c.bytes.toString('utf8'))).toEqual([command(2, 500)]);
    expect(full.cursors.get(G1)).toBe(7);
    full.close();

    const again = open(path);
    again.outbox.add(command(3, 200_000));
    expect(again.outbox.count()).toBe(3);
  });
});

describe('the schema version', () => {
  it('migrates a version 1 file to the current version in place, keeping its rows', () => {
    const path = home();
    const v1 = new Database(path);
    expect(migrate(v1, path, '2026-07-14T00:00:00.000Z', MIGRATIONS.filter((m) => m.version === 1))).toEqual([1]);
    v1.prepare(`INSERT INTO projection_owner (singleton, agent_id, created_at) VALUES (1, ?, '2026-07-14T00:00:00.000Z')`).run(AGENT);
    v1.prepare(`INSERT INTO cursors (group_id, sequence, updated_at) VALUES (?, 41, '2026-07-14T00:00:00.000Z')`).run(G1);
    v1.close();

    const projection = open(path);
    expect(SCHEMA_VERSION).toBe(4);
    expect(projection.cursors.get(G1)).toBe(41);
    expect(projection.work.own(G1, 'urn:missionweave:work-item:w1', 1)).toMatchObject({ status: 'queued' });
    projection.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT version, applied_at FROM schema_version ORDER BY version').all()).toEqual([
      { version: 1, applied_at: '2026-07-14T00:00:00.000Z' },
      { version: 2, applied_at: '2026-07-15T00:00:00.000Z' },
      { version: 3, applied_at: '2026-07-15T00:00:00.000Z' },
      { version: 4, applied_at: '2026-07-15T00:00:00.000Z' },
    ]);
    raw.close();
  });

  it('refuses a file written by a newer runtime and leaves it unchanged', () => {
    const path = home();
    open(path).close();
    const raw = new Database(path);
    raw.prepare(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from the future', '2027-01-01T00:00:00.000Z')`).run(SCHEMA_VERSION + 1);
    raw.close();
    const before = readFileSync(path);
    const error = refusalOf(path);
    expect(error).toMatchObject({ reason: 'schema-too-new', path });
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 1} is newer than this runtime knows (${SCHEMA_VERSION})`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses another Agent’s file', () => {
    const path = home();
    open(path).close();
    expect(refusalOf(path, { agentId: 'urn:missionweave:agent:someone-else' })).toMatchObject({ reason: 'other-agent', path });
  });
});
