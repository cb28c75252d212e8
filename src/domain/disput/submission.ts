/**
 * The payload of `ext.missionweave.disput.turn`, read strictly so that a malformed one is refused
 * with the stable reason `invalid_payload` (the profile's JSON Schema only says "an object", as
 * Parley's does): `fileName`, `text` (the turn file exactly as committed), `commit` (its full
 * hex sha), `changedPaths` (what the turn's commits changed), and optionally `config`
 * (`disput.toml`) and `backlog` (`.disput/backlog.md`), as committed.
 */

import type { Refusal } from '../model.js';
import type { TurnSubmission } from './checkTurn.js';
import { disputLimits } from './disputLimits.js';
import { disputRefusal } from './disputRefusals.js';

const MEMBERS = new Set(['fileName', 'text', 'commit', 'changedPaths', 'config', 'backlog']);
/** A full git object name: SHA-1 (40) or SHA-256 (64) hex, so prefixes compare safely. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function invalid(why: string): Refusal {
  return disputRefusal('invalid_payload', why);
}

function optionalText(value: unknown, what: string, max: number): string | undefined | Refusal {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return invalid(`${what} is a string`);
  if (value.length > max) return disputRefusal('disput_limit', `${what} holds at most ${max} characters`);
  return value;
}

export function parseSubmission(payload: unknown): TurnSubmission | Refusal {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return invalid('the payload is an object');
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) if (!MEMBERS.has(key)) return invalid(`unknown member ${key}`);
  if (typeof p.fileName !== 'string' || p.fileName.length === 0 || p.fileName.length > 128) return invalid('fileName is the turn file\'s name');
  if (typeof p.text !== 'string') return invalid('text is the turn file as committed');
  if (p.text.length > disputLimits.turnTextMaxChars) return disputRefusal('disput_limit', `a turn file holds at most ${disputLimits.turnTextMaxChars} characters`);
  if (typeof p.commit !== 'string' || !COMMIT.test(p.commit)) return invalid('commit is the full hex sha of the turn\'s commit');
  const paths = p.changedPaths ?? [];
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string' && path.length > 0)) return invalid('changedPaths lists the changed paths');
  if (paths.length > disputLimits.maxChangedPaths || paths.some((path: string) => path.length > disputLimits.pathMaxChars)) {
    return disputRefusal('disput_limit', `at most ${disputLimits.maxChangedPaths} changed paths of ${disputLimits.pathMaxChars} characters`);
  }
  const config = optionalText(p.config, 'config', disputLimits.configTextMaxChars);
  if (typeof config === 'object') return config;
  const backlog = optionalText(p.backlog, 'backlog', disputLimits.backlogTextMaxChars);
  if (typeof backlog === 'object') return backlog;
  return {
    fileName: p.fileName,
    text: p.text,
    commit: p.commit,
    changedPaths: paths as string[],
    ...(config === undefined ? {} : { config }),
    ...(backlog === undefined ? {} : { backlog }),
  };
}
