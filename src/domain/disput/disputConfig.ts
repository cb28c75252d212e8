/**
 * `disput.toml` (seed §6, §8.7, §9) parsed with a maintained TOML parser into a typed, bounded
 * config: participants with their roles (and `[[assignments]]` adding holders to a role), roles
 * with `writes_code`, `triggers` and `brief`, `[[checks]]` under `must_pass` / `no_regression`,
 * and `[guards]` `env` / `deny`. Unknown keys are refused: a misspelt `writes_cod = true` must not
 * silently leave a reviewer free to change code.
 *
 * In a Group every participant names its `principal` (who plays it), and the `decider`'s is a
 * human: the seed has no such field because without an Authority it needs none.
 */

import { parse as parseToml } from 'smol-toml';
import { isPrincipalType, type Principal } from '../../protocol/principal.js';
import type { Refusal } from '../model.js';
import { disputLimits } from './disputLimits.js';
import { disputRefusal } from './disputRefusals.js';
import { NAME_PATTERN } from './turnFile.js';
import { DECIDER_ROLE, type CheckPolicy, type DisputCheck, type DisputConfig, type DisputGuards, type DisputParticipant, type DisputRole, type Trigger } from './disputTypes.js';

type Table = Record<string, unknown>;

class ConfigError extends Error {}

function fail(why: string): never {
  throw new ConfigError(why);
}

function isTable(value: unknown): value is Table {
  if (typeof value !== 'object' || value === null) return false;
  // smol-toml gives tables a null prototype; arrays and dates (TomlDate) have their own.
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

function only(table: Table, where: string, keys: readonly string[]): void {
  for (const key of Object.keys(table)) if (!keys.includes(key)) fail(`${where}: unknown key ${key}`);
}

function text(value: unknown, where: string, max: number, fallback?: string): string {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || value.length > max) fail(`${where} is a string of at most ${max} characters`);
  return value;
}

function name(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length > disputLimits.nameMaxChars || !NAME_PATTERN.test(value)) fail(`${where} is a short name: lower-case letters, digits, _`);
  return value;
}

function tables(value: unknown, where: string, max: number): Table[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isTable)) fail(`${where} is an array of tables ([[${where}]])`);
  if (value.length > max) fail(`at most ${max} ${where}`);
  return value as Table[];
}

function names(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) fail(`${where} is an array of names`);
  const list = value.map((v, i) => name(v, `${where}[${i}]`));
  if (new Set(list).size !== list.length) fail(`${where} names one twice`);
  return list;
}

export function parseTrigger(value: unknown, where: string): Trigger {
  if (value === 'items_pending' || value === 'code_changed' || value === 'backlog') return { kind: value };
  if (typeof value === 'string' && value.startsWith('paths:')) {
    const globs = value.slice('paths:'.length).split(',').map((g) => g.trim());
    if (globs.length > disputLimits.maxGlobsPerTrigger || globs.some((g) => g.length === 0 || g.length > disputLimits.pathMaxChars)) fail(`${where}: paths:<glob>,<glob> with at most ${disputLimits.maxGlobsPerTrigger} globs`);
    return { kind: 'paths', globs };
  }
  return fail(`${where} is items_pending, code_changed, backlog or paths:<glob>,…`);
}

function role(table: Table, i: number): DisputRole {
  const where = `roles[${i}]`;
  only(table, where, ['name', 'writes_code', 'triggers', 'brief']);
  const writes = table.writes_code ?? false;
  if (typeof writes !== 'boolean') fail(`${where}.writes_code is true or false`);
  const triggers = table.triggers ?? [];
  if (!Array.isArray(triggers)) fail(`${where}.triggers is an array`);
  return { name: name(table.name, `${where}.name`), writesCode: writes, triggers: triggers.map((t, j) => parseTrigger(t, `${where}.triggers[${j}]`)), brief: text(table.brief, `${where}.brief`, disputLimits.briefMaxChars, '') };
}

function principal(value: unknown, where: string): Principal {
  if (!isTable(value)) fail(`${where} is { type = "agent" | "human" | "service", id = "…" }`);
  only(value, where, ['type', 'id']);
  if (!isPrincipalType(value.type)) fail(`${where}.type is agent, human or service`);
  const id = text(value.id, `${where}.id`, 512);
  if (id.length === 0) fail(`${where}.id is empty`);
  return { type: value.type, id };
}

function participant(table: Table, i: number, known: ReadonlySet<string>): DisputParticipant {
  const where = `participants[${i}]`;
  only(table, where, ['name', 'adapter', 'roles', 'principal']);
  const roles = names(table.roles ?? [], `${where}.roles`);
  for (const r of roles) if (!known.has(r)) fail(`${where}.roles: ${r} is not a role of [[roles]] nor ${DECIDER_ROLE}`);
  const entry: DisputParticipant = { name: name(table.name, `${where}.name`), roles };
  const withAdapter = table.adapter === undefined ? entry : { ...entry, adapter: text(table.adapter, `${where}.adapter`, 64) };
  return table.principal === undefined ? withAdapter : { ...withAdapter, principal: principal(table.principal, `${where}.principal`) };
}

function check(table: Table, i: number): DisputCheck {
  const where = `checks[${i}]`;
  only(table, where, ['name', 'command', 'policy']);
  const command = text(table.command, `${where}.command`, disputLimits.commandMaxChars);
  if (command.trim().length === 0) fail(`${where}.command is empty`);
  if (table.policy !== 'must_pass' && table.policy !== 'no_regression') fail(`${where}.policy is must_pass or no_regression`);
  return { name: name(table.name, `${where}.name`), command, policy: table.policy as CheckPolicy };
}

function guards(value: unknown): DisputGuards {
  if (value === undefined) return { env: {}, deny: [] };
  if (!isTable(value)) fail('[guards] is a table');
  only(value, 'guards', ['env', 'deny']);
  const env: Record<string, string> = {};
  const rawEnv = value.env ?? {};
  if (!isTable(rawEnv)) fail('guards.env is a table of strings');
  const entries = Object.entries(rawEnv);
  if (entries.length > disputLimits.maxGuardEnv) fail(`guards.env holds at most ${disputLimits.maxGuardEnv} variables`);
  for (const [key, v] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) fail(`guards.env: ${key} is not a variable name`);
    env[key] = text(v, `guards.env.${key}`, disputLimits.guardValueMaxChars);
  }
  const rawDeny = value.deny ?? [];
  if (!Array.isArray(rawDeny) || rawDeny.length > disputLimits.maxGuardDeny) fail(`guards.deny is an array of at most ${disputLimits.maxGuardDeny} patterns`);
  const deny = rawDeny.map((d, i) => text(d, `guards.deny[${i}]`, disputLimits.guardValueMaxChars));
  if (deny.some((d) => d.trim().length === 0)) fail('guards.deny: an empty pattern would deny everything');
  return { env, deny };
}

function unique(list: readonly { name: string }[], where: string): void {
  const seen = new Set<string>();
  for (const entry of list) {
    if (seen.has(entry.name)) fail(`${where}: ${entry.name} appears twice`);
    seen.add(entry.name);
  }
}

function withAssignments(participants: DisputParticipant[], raw: Table[], known: ReadonlySet<string>): DisputParticipant[] {
  let result = participants;
  raw.forEach((table, i) => {
    const where = `assignments[${i}]`;
    only(table, where, ['role', 'participants']);
    const r = name(table.role, `${where}.role`);
    if (!known.has(r)) fail(`${where}.role: ${r} is not a role`);
    for (const p of names(table.participants, `${where}.participants`)) {
      if (!result.some((q) => q.name === p)) fail(`${where}: ${p} is not a participant`);
      result = result.map((q) => (q.name === p && !q.roles.includes(r) ? { ...q, roles: [...q.roles, r] } : q));
    }
  });
  return result;
}

function build(raw: Table, requirePrincipals: boolean): DisputConfig {
  only(raw, 'disput.toml', ['participants', 'roles', 'assignments', 'checks', 'guards']);
  const roles = tables(raw.roles, 'roles', disputLimits.maxRoles).map(role);
  unique(roles, 'roles');
  const known = new Set([...roles.map((r) => r.name), DECIDER_ROLE]);
  const participantTables = tables(raw.participants, 'participants', disputLimits.maxParticipants);
  if (participantTables.length === 0) fail('no [[participants]]');
  const participants = withAssignments(participantTables.map((t, i) => participant(t, i, known)), tables(raw.assignments, 'assignments', disputLimits.maxRoles), known);
  unique(participants, 'participants');
  const checks = tables(raw.checks, 'checks', disputLimits.maxChecks).map(check);
  unique(checks, 'checks');
  const deciders = participants.filter((p) => p.roles.includes(DECIDER_ROLE));
  // §7.1: a USER status waits for the decider; without one the dialogue could never go on.
  if (deciders.length === 0) fail(`no participant holds the ${DECIDER_ROLE} role (§10)`);
  if (requirePrincipals) {
    const bound = new Set<string>();
    for (const p of participants) {
      if (p.principal === undefined) fail(`participant ${p.name} names no principal: a Group must know who plays it`);
      const key = `${p.principal.type} ${p.principal.id}`;
      // Rule 7 compares participants; one Principal under two names would review itself.
      if (bound.has(key)) fail(`participant ${p.name}: its principal plays another participant`);
      bound.add(key);
      if (p.roles.includes(DECIDER_ROLE) && p.principal.type !== 'human') fail(`participant ${p.name} holds ${DECIDER_ROLE}: a human principal (§10)`);
    }
  }
  return { participants, roles, checks, guards: guards(raw.guards) };
}

/** Parses `disput.toml`; with `requirePrincipals`, as a Group pins it. */
export function parseDisputConfig(source: string, options: { readonly requirePrincipals?: boolean } = {}): DisputConfig | Refusal {
  if (source.length > disputLimits.configTextMaxChars) return disputRefusal('disput_limit', `disput.toml holds at most ${disputLimits.configTextMaxChars} characters`);
  try {
    const raw = parseToml(source) as Table;
    return build(raw, options.requirePrincipals ?? false);
  } catch (error) {
    if (error instanceof ConfigError) return disputRefusal('config_invalid', `disput.toml: ${error.message}`);
    return disputRefusal('config_invalid', `disput.toml is not TOML: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'parse error'}`);
  }
}
