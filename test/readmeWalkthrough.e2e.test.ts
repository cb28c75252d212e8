/**
 * The README's walk-through runs top to bottom as written (issue 33, item 1): the shell block
 * between `<!-- walkthrough:start -->` and `<!-- walkthrough:end -->` is run by bash, with `-e`
 * and `pipefail` so any step that exits non-zero fails it, in a fresh empty folder, with the
 * built binary (`dist/cli/main.js`, the package's `bin`) on `PATH` as `missionweave` and no
 * `DATABASE_URL`: the folder's own embedded PostgreSQL, as a new user gets it. The block starts
 * `serve` in the background, drives `mcp` over stdio, and stops the node itself; whatever it left
 * running when it fails is stopped here, with its process group.
 */

import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeEmbeddedData } from '../src/store/embeddedPostgres.js';

const ROOT = resolve(import.meta.dirname, '..');
const BINARY = join(ROOT, 'dist', 'cli', 'main.js');
const LIMIT_MS = 280_000;

/** The shell block between the README's walk-through markers, exactly as written there. */
function walkthroughScript(readme: string): string {
  const marked = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)\n```\s*<!-- walkthrough:end -->/.exec(readme);
  if (marked === null) throw new Error('README.md has no ```sh block between <!-- walkthrough:start --> and <!-- walkthrough:end -->');
  return `${marked[1] as string}\n`;
}

const scratch = mkdtempSync(join(tmpdir(), 'mw-readme-'));
const work = join(scratch, 'work');
let processGroup: number | undefined;

afterAll(() => {
  if (processGroup !== undefined) {
    try {
      process.kill(-processGroup, 'SIGKILL');
    } catch {
      // Already gone: the walk-through stopped its node itself.
    }
  }
  removeEmbeddedData(join(work, 'demo', 'db'));
  rmSync(scratch, { recursive: true, force: true });
});

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-x', script], { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  processGroup = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), LIMIT_MS);
  return new Promise((done) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

it('runs the README walk-through as written, on the embedded PostgreSQL', async () => {
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'missionweave'), `#!/bin/sh\nexec '${process.execPath}' '${BINARY}' "$@"\n`);
  chmodSync(join(bin, 'missionweave'), 0o755);
  const script = join(scratch, 'walkthrough.sh');
  writeFileSync(script, walkthroughScript(readFileSync(join(ROOT, 'README.md'), 'utf8')));
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` };
  delete env['DATABASE_URL'];

  const run = await runBash(script, env);
  expect(run.code, `${run.stderr.slice(-4000)}\n${run.stdout.slice(-2000)}`).toBe(0);

  const groupId = /"groupId":"(urn:missionweave:group:[^"]+)"/.exec(readFileSync(join(work, 'created.json'), 'utf8'))?.[1];
  expect(groupId).toBeDefined();
  // The MCP agent's Parley act went through: the answer to request 2 is the posted Event, no refusal.
  const answer = run.stdout.split('\n').find((line) => line.startsWith('{"result"') && line.includes('"id":2'));
  expect(answer).toContain('"kind":"ext.missionweave.parley.posted"');
  expect(answer).not.toContain('"isError":true');
  // created, message, membership, Parley's post, cancelled — then archived after the replay.
  expect(run.stderr).toContain(`verified 5 Events of ${groupId as string}: OK`);
  expect(run.stdout).toContain('"kind":"group.archived"');
  expect(JSON.parse(readFileSync(join(work, 'registry.json'), 'utf8'))).toHaveProperty('registry.bindings');
  // The node stopped cleanly: it took back the file that said where it listened.
  expect(existsSync(join(work, 'demo', 'node.json'))).toBe(false);
}, 300_000);
