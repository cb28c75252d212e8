/**
 * Seed §6 triggers a turn fires: `code_changed` (a path outside `.disput/` changed) and
 * `paths:<glob>,<glob>` (a changed path matches). The changed paths are the ones the turn's
 * Command reports; the Authority cannot see the repository, `disput check` compares them with
 * the commit (§8). Globs match the whole path from the repository root: `*` and `?` stay inside
 * one folder, `**` crosses folders.
 */

import type { DisputConfig, Trigger } from './disputTypes.js';

export const DISPUT_FOLDER = '.disput/';

export function isCodePath(path: string): boolean {
  return !path.startsWith(DISPUT_FOLDER);
}

export function globRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function matchesGlob(glob: string, path: string): boolean {
  return globRegExp(glob).test(path);
}

function fires(trigger: Trigger, changed: readonly string[]): boolean {
  switch (trigger.kind) {
    case 'code_changed':
      return changed.some(isCodePath);
    case 'paths':
      return changed.some((path) => trigger.globs.some((glob) => matchesGlob(glob, path)));
    case 'items_pending':
    case 'backlog':
      return false;
    default: {
      const _exhaustive: never = trigger;
      return _exhaustive;
    }
  }
}

/** The roles whose diff triggers `changed` fires, in `disput.toml` order (§7.3). */
export function triggeredRoles(config: DisputConfig, changed: readonly string[]): string[] {
  return config.roles.filter((role) => role.triggers.some((t) => fires(t, changed))).map((role) => role.name);
}

/** A role that reviews diffs: one with a `code_changed` or `paths:` trigger. */
export function isReviewRole(config: DisputConfig, role: string): boolean {
  return config.roles.some((r) => r.name === role && r.triggers.some((t) => t.kind === 'code_changed' || t.kind === 'paths'));
}
