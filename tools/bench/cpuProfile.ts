/**
 * Self time from a V8 `.cpuprofile` (what `node --cpu-prof` writes, one file per thread),
 * aggregated by function and by file, to say where a phase's CPU goes (issue 16 part 3: profile
 * first, then cut).
 *
 * A sample's time is the gap to the next sample (the last one runs to `endTime`), as Chrome
 * DevTools counts it; V8's sampling interval is irregular under load, so counting samples alone
 * would weigh a slow tick like a fast one.
 */

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber?: number;
}

export interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame }[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly selfMs: number;
  /** Share of the busy (non-idle) time, 0–1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** `(idle)` samples: the thread was waiting for I/O or a message. */
  readonly idleMs: number;
  readonly busyMs: number;
  readonly byFunction: readonly SelfTime[];
  readonly byFile: readonly SelfTime[];
}

/** V8's pseudo-frames, which have no script: idle, program (native code), GC, root. */
const isPseudo = (frame: CallFrame) => frame.url === '' && frame.functionName.startsWith('(');

/**
 * A script's URL, short: from `node_modules/` or from our `dist/` (compiled, so line numbers are
 * the JavaScript's), `src/` or `test/` on, or as Node names its internals.
 */
export function shortFile(url: string): string {
  if (url === '') return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) return path.slice(modules);
  const ours = path.search(/\/(dist|src|test)\//);
  return ours >= 0 ? path.slice(ours + 1) : path;
}

function functionKey(frame: CallFrame): string {
  if (isPseudo(frame)) return frame.functionName;
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? `${name} (native)` : `${name} ${shortFile(frame.url)}:${frame.lineNumber + 1}`;
}

function fileKey(frame: CallFrame): string {
  return isPseudo(frame) ? frame.functionName : shortFile(frame.url);
}

function ranked(totals: Map<string, number>, busyMs: number, top: number): SelfTime[] {
  return [...totals]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, selfMs]) => ({ name, selfMs, share: busyMs > 0 ? selfMs / busyMs : 0 }));
}

/**
 * A span of the monotonic clock, in µs: V8 stamps profiles with the same CLOCK_MONOTONIC as
 * `process.hrtime`, so the window a bench phase logs selects that phase in any thread's profile.
 */
export interface Window {
  readonly fromUs: number;
  readonly toUs: number;
}

export function summarizeProfile(profile: CpuProfile, top = 25, window?: Window): ProfileSummary {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let at = profile.startTime;
  const times = profile.samples.map((_, i) => (at += profile.timeDeltas[i] ?? 0));
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    const stamp = times[i] as number;
    if (frame === undefined || (window !== undefined && (stamp < window.fromUs || stamp >= window.toUs))) return;
    const ms = ((times[i + 1] ?? profile.endTime) - stamp) / 1000;
    totalMs += ms;
    byFunction.set(functionKey(frame), (byFunction.get(functionKey(frame)) ?? 0) + ms);
    byFile.set(fileKey(frame), (byFile.get(fileKey(frame)) ?? 0) + ms);
  });
  const idleMs = byFunction.get('(idle)') ?? 0;
  const busyMs = totalMs - idleMs;
  return { totalMs, idleMs, busyMs, byFunction: ranked(byFunction, busyMs, top), byFile: ranked(byFile, busyMs, top) };
}

/** The summary as Markdown tables, ready for docs/perf. */
export function summaryMarkdown(title: string, s: ProfileSummary): string {
  const table = (heading: string, rows: readonly SelfTime[]) => [
    `| ${heading} | self ms | % of busy |`,
    '| --- | ---: | ---: |',
    ...rows.map((r) => `| \`${r.name.replaceAll('|', '\\|')}\` | ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} |`),
  ].join('\n');
  return [
    `### ${title}`,
    '',
    `${(s.totalMs / 1000).toFixed(1)} s profiled, ${(s.busyMs / 1000).toFixed(1)} s busy, ${(s.idleMs / 1000).toFixed(1)} s idle.`,
    '',
    table('function (self time)', s.byFunction),
    '',
    table('file (self time)', s.byFile),
    '',
  ].join('\n');
}
