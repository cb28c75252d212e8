/**
 * The operator CLI in process: `runCli(...args)` dispatches as `missionweave …` does
 * (src/cli/runCli.ts), with the output captured and the exit code returned. A command on an
 * operator folder made by `operatorScratch` works on a database of that folder's own, cloned from
 * the run's migrated template (`DATABASE_URL`), rather than on an embedded PostgreSQL started in
 * the folder by each command; the real binary on the embedded database keeps one smoke test per
 * command group (cliBinary.e2e.test.ts).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli as dispatch } from '../../src/cli/runCli.js';
import { removeEmbeddedData } from '../../src/store/embeddedPostgres.js';
import { createTestDatabase } from './database.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Operator folder → the URL of its database. */
const databases = new Map<string, string>();

/** A scratch folder with an operator folder `name` inside it (and a database for it), both removed after the file. */
export function operatorScratch(prefix: string, name: string): { readonly scratch: string; readonly dir: string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(scratch, name);
  beforeAll(async () => {
    databases.set(dir, (await createTestDatabase({ poolSize: 1 })).url);
  });
  afterAll(() => {
    removeEmbeddedData(join(dir, 'db'));
    rmSync(scratch, { recursive: true, force: true });
  });
  return { scratch, dir };
}

/** Runs one CLI command in process, on the database of the operator folder given with `--dir`. */
export async function runCli(...args: string[]): Promise<CliResult> {
  const at = args.indexOf('--dir');
  const dir = at === -1 ? undefined : args[at + 1];
  let stdout = '';
  let stderr = '';
  const code = await dispatch(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: { DATABASE_URL: dir === undefined ? undefined : databases.get(dir) },
  });
  return { code, stdout, stderr };
}

/** The last line of a command's output, parsed (commands end with one JSON line). */
export function lastJsonLine(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

const BINARY = join(process.cwd(), 'dist', 'cli', 'main.js');

/** Runs the built binary as an operator does, with no `DATABASE_URL`: the folder's embedded PostgreSQL. */
export function runBinary(...args: string[]): CliResult {
  const env = { ...process.env };
  delete env['DATABASE_URL'];
  const result = spawnSync(process.execPath, [BINARY, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The walk-through's Mission (planner coordinating, due in 30 days) as a `--payload @FILE` in `scratch`: its path. */
export function plannerMissionFile(scratch: string): string {
  const payload = join(scratch, 'mission.json');
  writeFileSync(payload, JSON.stringify({
    coordinatorId: 'urn:missionweave:agent:planner',
    title: 'Plan the offsite',
    objective: 'Agree an agenda for the team offsite.',
    definitionOfDone: [{ criterionId: 'agenda', description: 'An agreed agenda.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 100 },
    deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  }));
  return payload;
}
