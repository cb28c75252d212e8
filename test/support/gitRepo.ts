/**
 * Real git repositories for the disput tool's tests: a working clone of a bare "remote", with a
 * first turn already committed and pushed so `refs/remotes/origin/main` exists. Identity and
 * config come from the environment given to every git call, so commits work on a bare machine
 * whatever the user's global config says (no signing hook, no template, branch `main`).
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { Verdict } from '../../src/client/disput/invariants.js';

/** What every git call here, and the tool's own, runs under. */
export const GIT_TEST_ENV = {
  GIT_AUTHOR_NAME: 'Disput Test',
  GIT_AUTHOR_EMAIL: 'disput@example.test',
  GIT_COMMITTER_NAME: 'Disput Test',
  GIT_COMMITTER_EMAIL: 'disput@example.test',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
} as const;

/** The tool reads `process.env`; a test file calls this once so its git calls see the same config. */
export function useGitTestEnv(): void {
  Object.assign(process.env, GIT_TEST_ENV);
}

export interface TestRepo {
  readonly dir: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  /** Stages everything and commits; returns the new HEAD. */
  commit(message: string): string;
  head(): string;
  cleanup(): void;
}

/** A turn file as seed §4 writes it. */
export function turnText(turn: number, participant: string, role: string, base = 'a1b2c3d'): string {
  return `+++\nturn = ${turn}\nparticipant = "${participant}"\nrole = "${role}"\nbase = "${base}"\nstatus = "CONTINUE"\n+++\n\n# Tour ${turn} — ${participant}, ${role} : test\n\n## Travail\nTest.\n`;
}

export function turnPath(turn: number, participant: string, role: string): string {
  return `.disput/turns/${String(turn).padStart(4, '0')}-${participant}-${role}.md`;
}

/**
 * A small header validator standing in for the domain's parser (which lives on another branch
 * until both merge): the `+++` TOML header parses and agrees with the file name.
 */
export function validateTurnFile(fileName: string, text: string): Verdict {
  const match = /^\+\+\+\n([\s\S]*?)\n\+\+\+\n/.exec(text);
  if (match === null) return { ok: false, reason: 'turn_header_invalid', message: 'no +++ header' };
  let header: Record<string, unknown>;
  try {
    header = parseToml(match[1] as string);
  } catch {
    return { ok: false, reason: 'turn_header_invalid', message: 'the header is not TOML' };
  }
  const expected = `${String(header.turn).padStart(4, '0')}-${String(header.participant)}-${String(header.role)}.md`;
  if (typeof header.turn !== 'number' || !['CONTINUE', 'USER', 'DONE'].includes(String(header.status))) return { ok: false, reason: 'turn_header_invalid', message: 'turn or status' };
  if (expected !== fileName) return { ok: false, reason: 'file_name_mismatch', message: `${fileName} is not ${expected}` };
  return { ok: true };
}

export function makeRepo(): TestRepo {
  const root = mkdtempSync(join(tmpdir(), 'disput-git-'));
  const dir = join(root, 'work');
  const remote = join(root, 'remote.git');
  const env = { ...process.env, ...GIT_TEST_ENV };
  const run = (cwd: string, args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  run(root, ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  run(root, ['init', '--quiet', '--initial-branch=main', dir]);
  const repo: TestRepo = {
    dir,
    git: (...args) => run(dir, args),
    write(path, text) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    commit(message) {
      run(dir, ['add', '-A']);
      run(dir, ['commit', '--quiet', '--allow-empty', '-m', message]);
      return run(dir, ['rev-parse', 'HEAD']);
    },
    head: () => run(dir, ['rev-parse', 'HEAD']),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  repo.write('.disput/.gitignore', 'logs/\nrun.lock\nlast-run.md\n');
  repo.write('src/app.txt', 'good\n');
  repo.write(turnPath(1, 'claude', 'implementer'), turnText(1, 'claude', 'implementer'));
  repo.commit('turn 1');
  repo.git('remote', 'add', 'origin', remote);
  repo.git('push', '--quiet', '-u', 'origin', 'main');
  return repo;
}
