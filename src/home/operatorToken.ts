/**
 * The operator's credential for a node serving this home: a random token in `operator.token`
 * (mode 0600, beside the keys), which the CLI presents to the node's operator route
 * (src/cli/operatorRoute.ts) so that `command`, `replay`, `audit`, `registry export` and `tree`
 * run in the node instead of starting PostgreSQL each time. Whoever reads it can read the home's
 * private keys already: it grants nothing new. Every process of a node, and several nodes on one
 * home, read the one file; the first to need it makes it (written whole, then linked into place).
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Home } from './home.js';

export const OPERATOR_TOKEN_FILE = 'operator.token';

/** The home's operator token, if it has one. */
export function readOperatorToken(home: Pick<Home, 'path'>): string | undefined {
  try {
    const token = readFileSync(home.path(OPERATOR_TOKEN_FILE), 'utf8').trim();
    return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The home's operator token, made first if it has none. */
export function ensureOperatorToken(home: Pick<Home, 'path'>): string {
  const target = home.path(OPERATOR_TOKEN_FILE);
  if (!existsSync(target)) {
    const draft = `${target}.${randomUUID()}.tmp`;
    writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  const token = readOperatorToken(home);
  if (token === undefined) throw new Error(`${target} does not hold an operator token; remove it and start the node again`);
  return token;
}
