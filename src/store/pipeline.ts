/**
 * Several statements in one round trip: the extended-protocol messages of each (Parse when the
 * connection has not prepared it yet, Bind, Describe, Execute) and one Sync, written in one
 * corked write. `pg` sends one statement and waits for its ReadyForQuery before the next, so a
 * Group write transaction of BEGIN, lock, reads, append and COMMIT paid five round trips: at low
 * load a batch holds one Command, and each round trip costs this process a write, a wake-up and
 * a parse of the answer, and the database backend the same (BENCHMARKS.md, "Latency at half
 * load"). PostgreSQL runs the statements in order, each with its own snapshot as if sent one by
 * one; after an error it skips the rest up to the Sync, so a failed statement fails the whole
 * pipeline and a COMMIT sent behind it never runs (the transaction is left aborted, to roll back).
 * Outside a transaction block the statements up to the Sync are one implicit transaction.
 */

import pg from 'pg';

/** One statement: named ones are prepared once per connection, as `pg` does. */
export interface Statement {
  readonly name?: string;
  readonly text: string;
  readonly values?: readonly unknown[];
}

/** The same statement as a `pg` query config, for `db.query` outside a pipeline. */
export function queryConfig(statement: Statement): pg.QueryConfig {
  return { ...(statement.name === undefined ? {} : { name: statement.name }), text: statement.text, values: [...(statement.values ?? [])] };
}

/** `pg`'s own result type and value encoding, so rows parse exactly as `client.query` parses them. */
interface ResultLike extends pg.QueryResult {
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: unknown): void;
}
const { Result, utils } = pg as unknown as {
  Result: new () => ResultLike;
  utils: { prepareValue(value: unknown): unknown };
};

interface Connection {
  readonly stream: { cork?(): void; uncork?(): void };
  readonly parsedStatements: Record<string, string>;
  parse(query: { text: string; name?: string }): void;
  bind(config: { statement?: string; values?: readonly unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
}

/** A `pg` query object (`Submittable`): `client.query(pipeline)`, then await `pipeline.done`. */
export class Pipeline implements pg.Submittable {
  readonly done: Promise<pg.QueryResult[]>;
  private settle!: (error: Error | undefined) => void;
  private readonly results: ResultLike[];
  private current = 0;
  /** Names whose Parse went out in this pipeline, in order: each ParseComplete confirms the next. */
  private readonly parsing: Statement[] = [];
  private onParsed: (() => void) | undefined;
  private connection: Connection | undefined;

  constructor(private readonly statements: readonly Statement[]) {
    this.results = statements.map(() => new Result());
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve(this.results) : reject(error));
    });
  }

  submit(connection: pg.Connection): Error | null {
    const con = connection as unknown as Connection;
    const named = new Map<string, string>();
    for (const s of this.statements) {
      if (s.name === undefined) continue;
      const known = con.parsedStatements[s.name] ?? named.get(s.name);
      if (known !== undefined && known !== s.text) return new Error(`prepared statement ${s.name} was used for a different statement`);
      named.set(s.name, s.text);
    }
    this.connection = con;
    // Record a named statement as prepared when PostgreSQL confirms it, as `pg` does for its own
    // queries: a Parse that failed, or was skipped after an earlier error, is sent again next time.
    this.onParsed = () => {
      const s = this.parsing.shift();
      if (s?.name !== undefined) con.parsedStatements[s.name] = s.text;
    };
    con.on('parseComplete', this.onParsed);
    con.stream.cork?.();
    try {
      // A named statement that comes twice in one pipeline (on Citus, one per Mission tree or
      // Agent) is parsed once: a second Parse of the name fails with 42P05 before the first is
      // confirmed, and the whole batch with it.
      const parsedHere = new Set<string>();
      for (const s of this.statements) {
        if (s.name === undefined || (con.parsedStatements[s.name] === undefined && !parsedHere.has(s.name))) {
          con.parse({ text: s.text, ...(s.name === undefined ? {} : { name: s.name }) });
          this.parsing.push(s);
          if (s.name !== undefined) parsedHere.add(s.name);
        }
        con.bind({ ...(s.name === undefined ? {} : { statement: s.name }), values: s.values ?? [], valueMapper: utils.prepareValue });
        con.describe({ type: 'P', name: '' });
        con.execute({ portal: '' });
      }
      con.sync();
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    this.results[this.current]?.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    const result = this.results[this.current];
    result?.addRow(result.parseRow(message.fields));
  }

  handleCommandComplete(message: unknown): void {
    this.results[this.current]?.addCommandComplete(message);
    this.current++;
  }

  handleEmptyQuery(): void {
    this.current++;
  }

  handleReadyForQuery(): void {
    this.finish(this.current === this.statements.length ? undefined : new Error(`a pipeline ended after ${this.current} of ${this.statements.length} statements`));
  }

  /**
   * `pg` forgets this query on an error, so its ReadyForQuery will not reach here. The error
   * names the statement that failed (its name, or the start of its text) for the log: on Citus
   * that tells which shard's read or write met a worker that is down.
   */
  handleError(error: Error): void {
    const s = this.statements[this.current];
    (error as Error & { statement?: string }).statement = s?.name ?? s?.text.slice(0, 120);
    this.finish(error);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {}

  handleCopyData(): void {}

  private finish(error: Error | undefined): void {
    if (this.onParsed !== undefined) this.connection?.off('parseComplete', this.onParsed);
    this.onParsed = undefined;
    this.settle(error);
  }
}

/** Runs `statements` in one round trip on `client`; one result per statement, in order. */
export async function runPipeline(client: pg.ClientBase, statements: readonly Statement[]): Promise<pg.QueryResult[]> {
  const pipeline = new Pipeline(statements);
  await client.query(pipeline);
  return pipeline.done;
}

const BEGIN: Statement = { name: 'mw-begin', text: 'begin' };
const COMMIT: Statement = { name: 'mw-commit', text: 'commit' };

/**
 * A write transaction whose BEGIN travels with its first statements and whose COMMIT with its
 * last. Statements sent through `client` directly belong to it once `run` has been called.
 */
export class PipelinedTransaction {
  private begun = false;
  private ended = false;

  constructor(readonly client: pg.PoolClient) {}

  /** `statements` in one round trip, after BEGIN the first time. */
  async run(statements: readonly Statement[]): Promise<pg.QueryResult[]> {
    return this.send(statements, false);
  }

  /** `statements` and COMMIT in one round trip; the transaction is over when this resolves. */
  async commitWith(statements: readonly Statement[]): Promise<pg.QueryResult[]> {
    return this.send(statements, true);
  }

  /** BEGIN went out: after a failure the transaction must be rolled back (a no-op if COMMIT ran). */
  get started(): boolean {
    return this.begun;
  }

  get committed(): boolean {
    return this.ended;
  }

  private async send(statements: readonly Statement[], commit: boolean): Promise<pg.QueryResult[]> {
    if (this.ended) throw new Error('the transaction is over');
    const first = !this.begun;
    this.begun = true;
    if (commit) this.ended = true;
    const results = await runPipeline(this.client, [...(first ? [BEGIN] : []), ...statements, ...(commit ? [COMMIT] : [])]);
    return results.slice(first ? 1 : 0, first ? statements.length + 1 : statements.length);
  }
}
