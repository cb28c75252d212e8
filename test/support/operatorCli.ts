/**
 * The operator CLI as a newcomer runs it: `node dist/cli/main.js …` with no `DATABASE_URL`, so
 * every command works on the folder's own embedded PostgreSQL, in a scratch folder removed after
 * the test file together with that cluster's data (kept outside the folder when we are root).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeEmbeddedData } from '../../src/store/embeddedPostgres.js';

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A scratch folder with an operator folder `name` inside it, both removed after the file. */
export function operatorScratch(prefix: string, name: string): { readonly scratch: string; readonly dir: string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(scratch, name);
  afterAll(() => {
    removeEmbeddedData(join(dir, 'db'));
    rmSync(scratch, { recursive: true, force: true });
  });
  return { scratch, dir };
}

/** Runs one CLI command on the embedded PostgreSQL. */
export function runCli(...args: string[]): CliResult {
  const env = { ...process.env };
  delete env['DATABASE_URL'];
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The last line of a command's output, parsed (commands end with one JSON line). */
export function lastJsonLine(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}
