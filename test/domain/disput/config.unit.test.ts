/**
 * `disput.toml` (seed §6, §8.7, §9) into a typed, bounded config: participants and assignments,
 * roles with writes_code / triggers / brief, checks and their policy, guards; what a Group adds
 * (principals, a human decider).
 */

import { describe, expect, it } from 'vitest';
import { parseDisputConfig } from '../../../src/domain/disput/disputConfig.js';
import { disputLimits } from '../../../src/domain/disput/disputLimits.js';
import type { DisputConfig } from '../../../src/domain/disput/disputTypes.js';
import { matchesGlob, triggeredRoles } from '../../../src/domain/disput/triggers.js';
import type { Refusal } from '../../../src/domain/model.js';
import { OWNER, WORKER } from '../fixtures.js';
import { CONFIG } from './disputFixtures.js';

function parsed(text: string, requirePrincipals = false): DisputConfig {
  const result = parseDisputConfig(text, { requirePrincipals });
  if ('ok' in result) expect.fail(`refused: ${result.error.reason} ${result.error.message}`);
  return result;
}

function refused(text: string, requirePrincipals = false): Refusal {
  const result = parseDisputConfig(text, { requirePrincipals });
  if (!('ok' in result)) expect.fail('accepted');
  return result;
}

const MINIMAL = '[[participants]]\nname = "user"\nroles = ["decider"]\n';

describe('disput.toml', () => {
  it('reads participants, roles, assignments, checks and guards into a typed config', () => {
    const config = parsed(CONFIG, true);
    expect(config.participants.map((p) => [p.name, p.roles])).toEqual([
      ['claude', ['implementer', 'reviewer']],
      ['vibe', ['implementer', 'reviewer']],
      ['codex', ['reviewer', 'security']],
      ['user', ['decider']],
    ]);
    expect(config.participants[0]).toMatchObject({ adapter: 'claude', principal: WORKER });
    expect(config.participants[3]?.principal).toEqual(OWNER);
    expect(config.roles).toEqual([
      { name: 'implementer', writesCode: true, triggers: [{ kind: 'backlog' }], brief: 'Implémente la tâche du backlog.' },
      { name: 'reviewer', writesCode: false, triggers: [{ kind: 'code_changed' }], brief: 'Review sévère du diff : bugs, sécurité, hypothèses non validées, écart code/tours.' },
      { name: 'security', writesCode: false, triggers: [{ kind: 'paths', globs: ['src/auth/**'] }], brief: 'Audit des chemins sensibles.' },
    ]);
    expect(config.checks).toEqual([
      { name: 'tests', command: 'npm test', policy: 'must_pass' },
      { name: 'lint', command: 'npm run lint', policy: 'no_regression' },
    ]);
    expect(config.guards).toEqual({ env: { DRY_RUN: 'true' }, deny: ['git push', 'git reset --hard'] });
  });

  it('a role writes no code unless it says so (writes_code defaults to false)', () => {
    const config = parsed(`${MINIMAL}\n[[roles]]\nname = "reviewer"\n`);
    expect(config.roles[0]).toEqual({ name: 'reviewer', writesCode: false, triggers: [], brief: '' });
    expect(config.guards).toEqual({ env: {}, deny: [] });
  });

  it.each([
    ['not TOML', 'participants = ['],
    ['an unknown top-level key', `${MINIMAL}\nversion = 1\n`],
    ['a misspelt role key', `${MINIMAL}\n[[roles]]\nname = "reviewer"\nwrites_cod = true\n`],
    ['writes_code as text', `${MINIMAL}\n[[roles]]\nname = "reviewer"\nwrites_code = "yes"\n`],
    ['an unknown trigger', `${MINIMAL}\n[[roles]]\nname = "reviewer"\ntriggers = ["on_push"]\n`],
    ['an empty paths: glob', `${MINIMAL}\n[[roles]]\nname = "security"\ntriggers = ["paths:src/**,"]\n`],
    ['a participant holding an undeclared role', '[[participants]]\nname = "user"\nroles = ["decider", "tester"]\n'],
    ['a name with a dash (file names split on it)', '[[participants]]\nname = "claude-3"\nroles = ["decider"]\n'],
    ['a participant twice', `${MINIMAL}${MINIMAL}`],
    ['a role twice', `${MINIMAL}\n[[roles]]\nname = "r"\n[[roles]]\nname = "r"\n`],
    ['no participants', '[[roles]]\nname = "r"\n'],
    ['no decider (§10)', '[[participants]]\nname = "claude"\nroles = []\n'],
    ['a check policy outside must_pass | no_regression', `${MINIMAL}\n[[checks]]\nname = "t"\ncommand = "npm test"\npolicy = "should_pass"\n`],
    ['an empty check command', `${MINIMAL}\n[[checks]]\nname = "t"\ncommand = " "\npolicy = "must_pass"\n`],
    ['a guard env that is not text', `${MINIMAL}\n[guards]\nenv = { DRY_RUN = true }\n`],
    ['an empty deny pattern', `${MINIMAL}\n[guards]\ndeny = [""]\n`],
    ['an assignment to an unknown participant', `${MINIMAL}\n[[roles]]\nname = "r"\n[[assignments]]\nrole = "r"\nparticipants = ["ghost"]\n`],
    ['a date where text is due', `${MINIMAL}\n[[checks]]\nname = "t"\ncommand = 2026-01-01\npolicy = "must_pass"\n`],
  ])('refuses %s with config_invalid', (_case, text) => {
    const refusal = refused(text);
    expect([refusal.error.code, refusal.error.reason, refusal.error.details?.reason]).toEqual(['SCHEMA_VALIDATION_FAILED', 'config_invalid', 'config_invalid']);
  });

  it('bounds its size and its lists (disputLimits)', () => {
    expect(refused(`${MINIMAL}#${'x'.repeat(disputLimits.configTextMaxChars)}`).error.reason).toBe('disput_limit');
    const many = Array.from({ length: disputLimits.maxParticipants + 1 }, (_, i) => `[[participants]]\nname = "p${i}"\nroles = ["decider"]\n`).join('\n');
    expect(refused(many).error.message).toContain(`at most ${disputLimits.maxParticipants}`);
  });

  describe('pinned in a Group', () => {
    it('every participant names its principal', () => {
      expect(refused(MINIMAL, true).error.message).toContain('names no principal');
      expect(parsed(MINIMAL).participants[0]?.principal).toBeUndefined();
    });

    it('the decider is a human', () => {
      const agentDecider = `[[participants]]\nname = "user"\nroles = ["decider"]\nprincipal = { type = "agent", id = "${WORKER.id}" }\n`;
      expect(refused(agentDecider, true).error.message).toContain('a human principal');
    });

    it('one principal plays one participant (rule 7 compares participants)', () => {
      const twice = CONFIG.replace(`id = "${OWNER.id}"`, `id = "${WORKER.id}"`).replace('type = "human"', 'type = "agent"');
      expect(refused(twice, true).error.reason).toBe('config_invalid');
    });
  });
});

describe('triggers (§6)', () => {
  const config = parsed(CONFIG);

  it('code_changed fires on a path outside .disput/, paths: on a matching path, in config order', () => {
    expect(triggeredRoles(config, ['.disput/turns/0001-claude-implementer.md'])).toEqual([]);
    expect(triggeredRoles(config, ['.disput/backlog.md', 'README.md'])).toEqual(['reviewer']);
    expect(triggeredRoles(config, ['src/auth/session.ts'])).toEqual(['reviewer', 'security']);
  });

  it('globs: * and ? stay in a folder, ** crosses folders', () => {
    expect(matchesGlob('src/auth/**', 'src/auth/a/b.ts')).toBe(true);
    expect(matchesGlob('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matchesGlob('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(matchesGlob('**/*.sql', 'db/migrations/0001.sql')).toBe(true);
    expect(matchesGlob('**/*.sql', 'x.sql')).toBe(true);
    expect(matchesGlob('v?.md', 'v1.md')).toBe(true);
    expect(matchesGlob('a.b', 'axb')).toBe(false);
  });
});
