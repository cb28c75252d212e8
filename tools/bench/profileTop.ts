/**
 * `node dist-tools/bench/profileTop.js [--top N] [--window A-B] <file.cpuprofile | folder>…`: the top N
 * functions and files by self time of each V8 CPU profile, as Markdown (cpuProfile.ts). A folder
 * stands for every `.cpuprofile` in it — `node --cpu-prof` writes one per thread, so a serve node
 * gives its main thread and each crypto worker — busiest first. `--window A-B` keeps only the
 * samples of that monotonic-clock span (µs), which each bench phase logs as `window A-B`: the
 * timed phase without the node's start-up (schema compilation) and idle waits around it.
 *
 *   MW_BENCH_SERVE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench -- --only many
 *   node dist-tools/bench/profileTop.js --top 20 --window <from the phase's log line> /tmp/prof
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { summarizeProfile, summaryMarkdown, type CpuProfile, type Window } from './cpuProfile.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : { at, value: args[at + 1] ?? '' };
};
const topOption = option('--top');
const windowOption = option('--window');
const top = topOption === undefined ? 25 : Number(topOption.value);
const [fromUs, toUs] = (windowOption?.value ?? '').split('-').map(Number);
const window: Window | undefined = windowOption === undefined ? undefined : { fromUs: fromUs ?? Number.NaN, toUs: toUs ?? Number.NaN };
const taken = new Set([topOption, windowOption].flatMap((o) => (o === undefined ? [] : [o.at, o.at + 1])));
const paths = args.filter((_, i) => !taken.has(i));
if (paths.length === 0 || !(top > 0) || (window !== undefined && !(window.fromUs < window.toUs))) {
  process.stderr.write('usage: profileTop [--top N] [--window FROM_US-TO_US] <file.cpuprofile | folder>…\n');
  process.exit(2);
}

const files = paths.flatMap((path) => (statSync(path).isDirectory() ? readdirSync(path).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(path, f)) : [path]));

/** `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`: thread 0 is the main thread. */
function threadOf(file: string): string {
  const thread = basename(file).split('.').at(-3);
  return thread === '0' ? 'main thread' : `thread ${thread ?? '?'}`;
}

const summaries = files.map((file) => ({ file, summary: summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top, window) }));
summaries.sort((a, b) => b.summary.busyMs - a.summary.busyMs);
for (const { file, summary } of summaries) process.stdout.write(`${summaryMarkdown(`${basename(file)} (${threadOf(file)})`, summary)}\n`);
