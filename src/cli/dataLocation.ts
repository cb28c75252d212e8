/**
 * Where a node's data lives, as its ready line says it (issue 33: embedded data folders must not
 * pile up unnoticed, outside the home when run as root): `data`, the embedded PostgreSQL data
 * folder, or `database`, the configured PostgreSQL's URL without its password.
 */

import type { DatabaseHandle } from '../store/embeddedPostgres.js';

/** The ready line's fields naming where the data lives. */
export function dataLocation(database: DatabaseHandle): { data: string } | { database: string } {
  return 'dataDirectory' in database && typeof database.dataDirectory === 'string' ? { data: database.dataDirectory } : { database: redactedUrl(database.url) };
}

/** A database URL without its password, to name it in a message or a log line. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(an unparsable database URL)';
  }
}
