/**
 * What `npm run bench:curves` measures (issue 16 part 5), as plain data: the curves, their
 * sizes (full and `--quick`), the limits the runs keep to and why, and where a measured curve
 * bends. No I/O here, so the command's own logic is unit-tested without a database.
 */

export const CURVES = ['groups', 'replay', 'restart', 'idle', 'registry'] as const;
export type CurveName = (typeof CURVES)[number];

/** The sizes of each curve's points. `--quick` keeps the shape at a size a test can afford. */
export interface CurveSizes {
  /** Groups the many-Groups load is spread over. */
  readonly groups: readonly number[];
  /** Events stored in the one Group replayed (and restarted over). */
  readonly replay: readonly number[];
  /** Idle authenticated sessions held open at once. */
  readonly idle: readonly number[];
  /** Agents registered (one card and key each) when a Registry copy is reloaded or caught up. */
  readonly registry: readonly number[];
}

export const FULL_SIZES: CurveSizes = { groups: [10, 1_000, 100_000], replay: [10_000, 1_000_000], idle: [1_000, 10_000, 30_000], registry: [1_000, 10_000, 30_000] };
export const QUICK_SIZES: CurveSizes = { groups: [2, 20, 200], replay: [500, 3_000], idle: [50, 200, 400], registry: [50, 200, 400] };

export const CURVE_LIMITS = {
  /** Writer Agents of the Groups curve: the bench's many-Groups phase uses 50. */
  writers: 50,
  /** Commands each writer sends per point (the many-Groups phase's 300: 15,000 per point). */
  commandsPerWriter: 300,
  quickCommandsPerWriter: 10,
  /**
   * Setup Commands in flight at once when creating Groups: enough to fill the in-process
   * Authority's batches (maxBatch 512), few enough to bound the pending promises.
   */
  setupWindow: 1_000,
  /** Events signed and written per `appendBatch` statement when seeding a history (~6 MB of JSON). */
  seedBatch: 2_000,
  /**
   * Worker threads signing a seeded history's rows (two signatures and two JCS texts per Event,
   * ~70 % of the seed's own CPU) while the main thread writes: one per core of the 2-core machine.
   */
  seedWorkers: 2,
  /**
   * Histories up to this size are verified in full after seeding (six stages and the fold). The
   * fold is linear (about 240 µs of CPU per Event at 5,000 and 20,000 Events); the full curve's
   * 1,000,000-Event point is left out, as the stored-state comparison reads every aggregate row
   * of the Group at once and that size was never run.
   */
  verifyUpTo: 100_000,
  /**
   * Agents registered per transaction by the idle curve's store-layer seed (curvesAgents.ts):
   * 1,000 cards are ~3 MB of rows, and signing the next chunk overlaps writing this one.
   */
  agentSeedChunk: 1_000,
  /**
   * Idle sessions one `serve` process of the idle curve holds at most: the server keeps one
   * descriptor per session, and a hard open-file limit of 20,000 (this machine's, without
   * CAP_SYS_RESOURCE) does not fit 30,000. More processes cost more than their share: at 6,000
   * sessions, 3 processes opened 102 sessions/s and grew 92 KB of RSS per session, 1 process
   * 187/s and 36 KB (each process reloads the whole Organization state after another's write).
   */
  idleSessionsPerServeProcess: 10_000,
  /** Sessions per idle load process, and per source address (the server caps one address at 16,384). */
  sessionsPerProcess: 5_000,
  /** Idle clients PING this often: the server closes a silent session after 120 s. */
  idlePingMs: 30_000,
  /** Restarts per point; the median is reported. */
  restarts: 3,
  /**
   * Open files asked for this process and what it spawns (granted only with privilege; else the
   * soft limit is raised to the hard one, enough with `idleSessionsPerServeProcess`).
   */
  openFiles: 100_000,
} as const;

export interface CurveOptions {
  readonly curves: readonly CurveName[];
  readonly quick: boolean;
  readonly json: boolean;
  readonly sizes: CurveSizes;
}

/**
 * `--curve groups|replay|restart|idle|registry` (comma-separated, or `all`), `--quick`, `--json`, and
 * `--sizes a,b,…` to measure every chosen curve at those sizes instead (a test, one more point).
 */
export function parseCurveArgs(argv: readonly string[]): CurveOptions {
  const at = argv.indexOf('--curve');
  if (at < 0 || argv[at + 1] === undefined) throw new Error(`--curve ${CURVES.join('|')}[,…] or --curve all is required`);
  const asked = String(argv[at + 1]).split(',').filter((c) => c !== '');
  const curves = asked.includes('all') ? [...CURVES] : asked;
  for (const curve of curves) if (!(CURVES as readonly string[]).includes(curve)) throw new Error(`unknown curve ${curve}; curves: ${CURVES.join(', ')}`);
  // Replay before restart, so a run of both restarts over the histories replay seeded.
  const ordered = CURVES.filter((c) => curves.includes(c));
  const quick = argv.includes('--quick');
  const sizesAt = argv.indexOf('--sizes');
  let sizes = quick ? QUICK_SIZES : FULL_SIZES;
  if (sizesAt >= 0) {
    const given = String(argv[sizesAt + 1] ?? '').split(',').map(Number);
    if (given.length === 0 || !given.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--sizes takes positive integers, comma-separated');
    sizes = { groups: given, replay: given, idle: given, registry: given };
  }
  return { curves: ordered, quick, json: argv.includes('--json'), sizes };
}

/** One measured point of a curve: its size and named figures. */
export interface CurvePoint {
  readonly size: number;
  readonly figures: Readonly<Record<string, number>>;
}

/** Where a figure moves by more than `threshold` (a fraction) between two neighbouring points. */
export interface Bend {
  readonly figure: string;
  readonly from: number;
  readonly to: number;
  /** after ÷ before. */
  readonly ratio: number;
}

/**
 * The steps of a curve where a figure changes by more than `threshold` (default 25 %): the
 * places the table's text has to explain. Figures missing or zero at either point are skipped.
 */
export function bends(points: readonly CurvePoint[], threshold = 0.25): Bend[] {
  const found: Bend[] = [];
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1] as CurvePoint;
    const after = points[i] as CurvePoint;
    for (const [figure, value] of Object.entries(after.figures)) {
      const old = before.figures[figure];
      if (old === undefined || old === 0 || !Number.isFinite(value)) continue;
      const ratio = value / old;
      if (Math.abs(ratio - 1) > threshold) found.push({ figure, from: before.size, to: after.size, ratio });
    }
  }
  return found;
}

/**
 * Which Groups writer `writer` (of `writers`) sends its `commands` to, among the first `size`
 * Groups: with fewer Groups than writers, all write to Group `writer mod size` (every writer is
 * a Member of the first `writers` Groups); otherwise the Groups it coordinates (index ≡ writer
 * mod writers), evenly spaced over the whole range so the load reaches every part of it.
 */
export function writerGroups(writer: number, writers: number, size: number, commands: number): number[] {
  if (size <= writers) return [writer % size];
  const own = Math.floor((size - 1 - writer) / writers) + 1;
  const count = Math.min(own, commands);
  return Array.from({ length: count }, (_, k) => writer + writers * Math.floor((k * own) / count));
}

/** Processes of the idle curve's `serve --processes N` node for `size` sessions: as few as hold them. */
export function idleServeProcesses(size: number): number {
  return Math.max(1, Math.ceil(size / CURVE_LIMITS.idleSessionsPerServeProcess));
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}
