/**
 * Administration beside the pool: the URL of another database on the same server (or on another
 * node of a cluster), and a few statements run on one short-lived connection. Used to create,
 * clone and drop databases (test harness, bench), where a pool would hold the database open.
 */

import pg from 'pg';

/** `url` naming `database` instead (and, when given, another host and port: a cluster node). */
export function withDatabase(url: string, database: string, host?: string, port?: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  if (host !== undefined) parsed.hostname = host;
  if (port !== undefined) parsed.port = String(port);
  return parsed.toString();
}

/** Runs `statements` in order on one connection to `url`, closed afterwards; returns their rows. */
export async function onNode<T = unknown>(url: string, statements: readonly string[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on('error', () => undefined);
  const rows: T[] = [];
  try {
    for (const sql of statements) rows.push(...((await client.query(sql)).rows as T[]));
  } finally {
    await client.end();
  }
  return rows;
}
