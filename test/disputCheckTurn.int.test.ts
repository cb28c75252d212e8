/**
 * The disput tool's `check` as one call (`checkLastTurn`): turn start recorded, turn played, then
 * invariants, checks under the guards, `last-run.md` written and kept local, the lock released.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLastTurn, type DisputToolConfig } from '../src/client/disput/checkLastTurn.js';
import { dirtyPaths } from '../src/client/disput/gitFacts.js';
import { LAST_RUN, recordTurnStart } from '../src/client/disput/localFiles.js';
import { RUN_LOCK } from '../src/client/disput/runLock.js';
import { makeRepo, turnPath, turnText, useGitTestEnv, validateTurnFile, type TestRepo } from './support/gitRepo.js';

const config: DisputToolConfig = {
  roles: [
    { name: 'implementer', writesCode: true },
    { name: 'reviewer', writesCode: false },
  ],
  checks: [
    { name: 'app-is-good', command: 'grep -q good src/app.txt', policy: 'no_regression' },
    { name: 'dry-run', command: 'test "$DRY_RUN" = true', policy: 'must_pass' },
  ],
  guards: { env: { DRY_RUN: 'true' }, deny: ['git push'] },
};
const rules = { validateTurnFile };
const now = (): Date => new Date('2026-12-02T04:00:00Z');

let repo: TestRepo;
beforeAll(() => useGitTestEnv());
afterEach(() => repo.cleanup());

function lastRun(): string {
  return readFileSync(join(repo.dir, LAST_RUN), 'utf8');
}

describe('disput check on the last turn', () => {
  it('a good implementer turn passes every invariant and check; last-run.md says so and stays local', async () => {
    repo = makeRepo();
    await recordTurnStart(repo.dir);
    repo.write('src/app.txt', 'good and better\n');
    repo.write(turnPath(2, 'claude', 'implementer'), turnText(2, 'claude', 'implementer'));
    repo.commit('turn 2');
    const result = await checkLastTurn(repo.dir, config, rules, { now });
    expect(result.ok).toBe(true);
    expect(lastRun()).toContain('# disput check — OK');
    expect(lastRun()).toContain('### dry-run (must_pass) — ok');
    expect(await dirtyPaths(repo.dir)).toEqual([]);
    expect(existsSync(join(repo.dir, RUN_LOCK))).toBe(false);
  });

  it('a regressing turn fails on no_regression, and last-run.md names the reason', async () => {
    repo = makeRepo();
    await recordTurnStart(repo.dir);
    repo.write('src/app.txt', 'broken\n');
    repo.write(turnPath(2, 'claude', 'implementer'), turnText(2, 'claude', 'implementer'));
    repo.commit('turn 2');
    const result = await checkLastTurn(repo.dir, config, rules, { now });
    expect(result.ok).toBe(false);
    expect('checks' in result && result.checks?.map((c) => [c.name, c.ok, c.reason])).toEqual([
      ['app-is-good', false, 'check_regressed'],
      ['dry-run', true, undefined],
    ]);
    expect(lastRun()).toContain('### app-is-good (no_regression) — check_regressed');
  });

  it('a dirty tree stops before the checks run; no recorded turn start is its own failure', async () => {
    repo = makeRepo();
    await recordTurnStart(repo.dir);
    repo.write(turnPath(2, 'vibe', 'reviewer'), turnText(2, 'vibe', 'reviewer'));
    repo.commit('turn 2');
    repo.write('scratch.txt', 'uncommitted');
    const result = await checkLastTurn(repo.dir, config, rules, { now });
    expect('checks' in result && [result.ok, result.checks, result.invariants.failures.map((f) => f.reason)]).toEqual([false, null, ['tree_dirty']]);
    expect(lastRun()).toContain('- not run');
    repo.cleanup();

    repo = makeRepo();
    expect(await checkLastTurn(repo.dir, config, rules, { now })).toEqual({ ok: false, reason: 'turn_start_missing' });
  });
});
