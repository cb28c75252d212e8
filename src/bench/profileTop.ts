/**
 * `node dist/bench/profileTop.js [--top N] <file.cpuprofile | folder>…`: the top N functions and
 * files by self time of each V8 CPU profile, as Markdown (cpuProfile.ts). A folder stands for
 * every `.cpuprofile` in it — `node --cpu-prof` writes one per thread, so a serve node gives its
 * main thread and each crypto worker — busiest first.
 *
 *   MW_BENCH_SERVE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench -- --only many
 *   node dist/bench/profileTop.js --top 20 /tmp/prof
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { summarizeProfile, summaryMarkdown, type CpuProfile } from './cpuProfile.js';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt < 0 ? 25 : Number(args[topAt + 1]);
const paths = args.filter((_, i) => i !== topAt && i !== topAt + 1);
if (paths.length === 0 || !(top > 0)) {
  process.stderr.write('usage: profileTop [--top N] <file.cpuprofile | folder>…\n');
  process.exit(2);
}

const files = paths.flatMap((path) => (statSync(path).isDirectory() ? readdirSync(path).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(path, f)) : [path]));

/** `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`: thread 0 is the main thread. */
function threadOf(file: string): string {
  const thread = basename(file).split('.').at(-3);
  return thread === '0' ? 'main thread' : `thread ${thread ?? '?'}`;
}

const summaries = files.map((file) => ({ file, summary: summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top) }));
summaries.sort((a, b) => b.summary.busyMs - a.summary.busyMs);
for (const { file, summary } of summaries) process.stdout.write(`${summaryMarkdown(`${basename(file)} (${threadOf(file)})`, summary)}\n`);
