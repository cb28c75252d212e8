/**
 * `npm run bench:curves -- --curve groups|replay|restart|idle|registry|all [--quick] [--json]`: the
 * scaling curves of issue 16 part 5, each from one command (BENCHMARKS.md, "Scaling curves").
 * One embedded PostgreSQL for the run (`synchronous_commit` and fsync on, as in `npm run bench`),
 * an in-process Authority for setup, real `serve` nodes and load processes for each point.
 * Prints one table per curve and the steps where a figure bends by more than 25 %; with `--json`
 * the last line is `{"<curve>": [{"size": …, figures…}, …], …}`.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedPostgres } from '#src/store/embeddedPostgres.js';
import { log } from './benchPhases.js';
import { BenchWorld } from './benchWorld.js';
import { bends, CURVE_LIMITS, parseCurveArgs, type CurveName, type CurvePoint } from './curvesPlan.js';
import { groupsCurve, idleCurve, replayCurve, restartCurve, type CurveWorld, type Histories } from './curvesRun.js';
import { registryCurve } from './curvesRegistry.js';

/**
 * Raises this process's open-file limit (inherited by every `serve` node and load process it
 * spawns) to `CURVE_LIMITS.openFiles`, or, unprivileged, its soft limit to the hard one. The idle
 * curve needs no more than 5,000 per load process and ~10,000 per `serve` process
 * (`CURVE_LIMITS.idleSessionsPerServeProcess`), which a hard limit of 20,000 allows.
 */
function raiseOpenFiles(): void {
  const set = (limit: string) => execFileSync('prlimit', [`--pid=${process.pid}`, `--nofile=${limit}:${limit}`], { stdio: 'ignore' });
  try {
    set(String(CURVE_LIMITS.openFiles));
  } catch {
    try {
      const hard = execFileSync('prlimit', [`--pid=${process.pid}`, '--nofile', '--raw', '--noheadings', '--output=HARD'], { encoding: 'utf8' }).trim();
      set(hard);
      log(`open-file limit ${hard} (the hard limit; ${CURVE_LIMITS.openFiles} needs privilege)`);
    } catch {
      log('could not raise the open-file limit; the largest idle points may fail');
    }
  }
}

function table(curve: CurveName, points: readonly CurvePoint[]): string {
  const names = Object.keys(points[0]?.figures ?? {});
  const cell = (v: number) => (Number.isNaN(v) ? '–' : Math.abs(v) >= 100 || Number.isInteger(v) ? Math.round(v).toLocaleString('en') : v.toFixed(1));
  const rows = points.map((p) => [p.size.toLocaleString('en'), ...names.map((n) => cell(p.figures[n] ?? Number.NaN))]);
  const widths = ['size', ...names].map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] as number)).join('  ');
  const bent = bends(points).map((b) => `  bends: ${b.figure} ×${b.ratio.toFixed(2)} from ${b.from.toLocaleString('en')} to ${b.to.toLocaleString('en')}`);
  return [`${curve}:`, line(['size', ...names]), ...rows.map(line), ...bent].join('\n');
}

async function main(): Promise<Partial<Record<CurveName, CurvePoint[]>>> {
  const options = parseCurveArgs(process.argv);
  raiseOpenFiles();
  const root = mkdtempSync(join(tmpdir(), 'mw-curves-'));
  const results: Partial<Record<CurveName, CurvePoint[]>> = {};
  const database = await openEmbeddedPostgres(join(root, 'db'), { temporary: true });
  try {
    const world = await BenchWorld.create(join(root, 'org'), database.url);
    const cw: CurveWorld = { world, dataDirectory: database.dataDirectory };
    const histories: Histories = new Map();
    try {
      for (const curve of options.curves) {
        log(`curve ${curve}`);
        if (curve === 'groups') results.groups = await groupsCurve(cw, options.sizes.groups, options.quick ? CURVE_LIMITS.quickCommandsPerWriter : CURVE_LIMITS.commandsPerWriter);
        if (curve === 'replay') results.replay = await replayCurve(cw, options.sizes.replay, histories);
        if (curve === 'restart') results.restart = await restartCurve(cw, options.sizes.replay, histories);
        if (curve === 'idle') results.idle = await idleCurve(cw, options.sizes.idle);
        if (curve === 'registry') results.registry = await registryCurve(cw, options.sizes.registry);
        process.stdout.write(`${table(curve, results[curve] ?? [])}\n`);
      }
    } finally {
      await world.close();
    }
  } finally {
    await database.stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

try {
  const results = await main();
  if (process.argv.includes('--json')) {
    const json = Object.fromEntries(Object.entries(results).map(([curve, points]) => [curve, points.map((p) => ({ size: p.size, ...Object.fromEntries(Object.entries(p.figures).map(([k, v]) => [k, Math.round(v * 10) / 10])) }))]));
    process.stdout.write(`${JSON.stringify(json)}\n`);
  }
  process.exit(0);
} catch (error) {
  process.stderr.write(`[curves] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
