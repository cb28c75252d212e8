/**
 * The conformance report (§22), made from what `npm test` recorded on the real pipeline
 * (src/app/evidence/): for every core Command and Event kind, whether a test saw it accepted and
 * refused, and for every transition row of §7.1 and §10.2, its positive and negative evidence.
 * The claim follows from that and from the known departures, never from prose:
 * `docs/conformance.md` is this module's output, and the claim block of docs/conformance-claim.md its summary.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvidenceLine } from '../../src/app/evidence/evidenceFile.js';
import { coreRegistry } from './coreDecider.js';
import { CARD_REGISTER, CARD_REGISTERED, SESSION_OPEN, SESSION_OPENED } from '../../src/domain/organization/organization.js';
import { KNOWN_DEPARTURES } from './conformanceDepartures.js';
import { negativeFor, positiveFor, TRANSITION_ROWS, type TransitionRow } from './transitionRows.js';

const coreKinds = coreRegistry();

/** At most this many test files are cited for one finding: enough to find it, short enough to read. */
const CITED = 3;

/**
 * Tests whose cases are drawn at random each run — the fault schedule of `faults.e2e`, the
 * property cases of `rebuild.int` — do not count: the report must be the same every run, so
 * what it claims rests on tests that show the same thing every time.
 */
export const UNCOUNTED_SOURCES: readonly string[] = ['test/faults.e2e.test.ts', 'test/rebuild.int.test.ts'];

export function readEvidence(folder: string): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      if (line !== '') lines.push(JSON.parse(line) as EvidenceLine);
    }
  }
  return lines;
}

/** `test/workOffers.int.test.ts` → `workOffers.int`. */
function testName(source: string): string {
  return source.replace(/^test\//, '').replace(/\.test\.ts$/, '');
}

/** The tests that showed a finding, by name, once each, in order. */
function names(sources: Iterable<string>): string[] {
  return [...new Set([...sources].map(testName))].sort();
}

/**
 * A finding of the report: the tests that showed it — all of them in a report built from a run's
 * evidence, the first `CITED` in the committed one (`cited`).
 */
export interface KindFinding {
  readonly name: string;
  readonly accepted: readonly string[];
  readonly refused: readonly string[];
}

export interface RowFinding {
  readonly section: string;
  readonly current: string;
  readonly trigger: string;
  readonly next: string;
  readonly positive: readonly string[];
  readonly negative: readonly string[];
}

export interface ConformanceReport {
  readonly commands: readonly KindFinding[];
  readonly events: readonly KindFinding[];
  readonly rows: readonly RowFinding[];
  readonly profileCommands: readonly KindFinding[];
  /** What the evidence does not show, one line each; empty when the full claim holds. */
  readonly gaps: readonly string[];
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** The Command kinds that append each Event kind. */
function emitters(): Map<string, string[]> {
  const byEvent = new Map<string, string[]>([[CARD_REGISTERED, [CARD_REGISTER]], [SESSION_OPENED, [SESSION_OPEN]]]);
  for (const name of coreKinds.kindNames) {
    const entry = coreKinds.groupKind(name);
    for (const type of entry?.events ?? []) push(byEvent, type.kind, name);
  }
  return byEvent;
}

function findingsOf(lines: readonly EvidenceLine[]): { accepted: Map<string, string[]>; refused: Map<string, string[]>; appended: Map<string, string[]> } {
  const accepted = new Map<string, string[]>();
  const appended = new Map<string, string[]>();
  const refused = new Map<string, string[]>();
  for (const line of lines) {
    if (line.fact === 'accepted') push(accepted, line.kind, line.source);
    if (line.fact === 'appended') push(appended, line.event, line.source);
    if (line.fact === 'refused') push(refused, line.kind, line.source);
  }
  return { accepted, refused, appended };
}

function gapsOf(commands: readonly KindFinding[], events: readonly KindFinding[], rows: readonly RowFinding[]): string[] {
  const gaps: string[] = [];
  for (const c of commands) {
    if (c.accepted.length === 0) gaps.push(`\`${c.name}\`: no test saw it accepted on the pipeline`);
    if (c.refused.length === 0) gaps.push(`\`${c.name}\`: no test saw it refused on the pipeline`);
  }
  for (const e of events) {
    if (e.accepted.length === 0) gaps.push(`\`${e.name}\`: no test saw it appended on the pipeline`);
    if (e.refused.length === 0) gaps.push(`\`${e.name}\`: no test saw a Command that appends it refused`);
  }
  for (const row of rows) {
    const what = `§${row.section} ${row.current} → ${row.trigger}`;
    if (row.positive.length === 0) gaps.push(`${what}: no positive evidence`);
    if (row.negative.length === 0) gaps.push(`${what}: no negative evidence`);
  }
  return gaps;
}

/** The report a run's evidence makes, every test that showed each finding named. */
export function buildReport(recorded: readonly EvidenceLine[]): ConformanceReport {
  const lines = recorded.filter((l) => !UNCOUNTED_SOURCES.includes(l.source));
  const { accepted, refused, appended } = findingsOf(lines);
  const kindFinding = (name: string): KindFinding => ({ name, accepted: names(accepted.get(name) ?? []), refused: names(refused.get(name) ?? []) });
  const commands = coreKinds.kindNames.map(kindFinding);
  const byEvent = emitters();
  const events = [...byEvent.keys()].sort().map((name) => ({ name, accepted: names(appended.get(name) ?? []), refused: names((byEvent.get(name) ?? []).flatMap((kind) => refused.get(kind) ?? [])) }));
  const rows = TRANSITION_ROWS.map((row) => ({
    section: row.section,
    current: row.current,
    trigger: row.trigger,
    next: row.next,
    positive: names(lines.filter((l) => positiveFor(row, l)).map((l) => l.source)),
    negative: names(lines.filter((l) => negativeFor(row, l)).map((l) => l.source)),
  }));
  const profileCommands = [...new Set([...accepted.keys(), ...refused.keys()])].filter((k) => coreKinds.kind(k) === undefined).sort().map(kindFinding);
  return { commands, events, rows, profileCommands, gaps: gapsOf(commands, events, rows) };
}

/** The report as committed: at most `CITED` tests named per finding. */
export function cited(report: ConformanceReport): ConformanceReport {
  const kinds = (list: readonly KindFinding[]) => list.map((f) => ({ name: f.name, accepted: f.accepted.slice(0, CITED), refused: f.refused.slice(0, CITED) }));
  return {
    commands: kinds(report.commands),
    events: kinds(report.events),
    rows: report.rows.map((r) => ({ ...r, positive: r.positive.slice(0, CITED), negative: r.negative.slice(0, CITED) })),
    profileCommands: kinds(report.profileCommands),
    gaps: report.gaps,
  };
}

/** Whether each finding was shown, without who showed it: what a run must reproduce exactly. */
export function shownOf(report: ConformanceReport): unknown {
  const kinds = (list: readonly KindFinding[]) => list.map((f) => [f.name, f.accepted.length > 0, f.refused.length > 0]);
  return { commands: kinds(report.commands), events: kinds(report.events), rows: report.rows.map((r) => [r.positive.length > 0, r.negative.length > 0]), profileCommands: kinds(report.profileCommands), gaps: report.gaps };
}

/**
 * The committed report's citations a run does not back: a finding none of whose cited tests
 * showed it this run. (A test that shows something only some runs — a race it reports — may drop
 * out of a finding; one of its other citations still stands.)
 */
export function unbackedCitations(committed: ConformanceReport, fresh: ConformanceReport): string[] {
  const unbacked: string[] = [];
  const check = (what: string, citedTests: readonly string[], shownBy: readonly string[]) => {
    if (citedTests.length > 0 && !citedTests.some((t) => shownBy.includes(t))) unbacked.push(`${what}: ${citedTests.join(', ')}`);
  };
  const kinds = (title: string, a: readonly KindFinding[], b: readonly KindFinding[]) =>
    a.forEach((f, i) => {
      check(`${title} ${f.name} accepted`, f.accepted, b[i]?.accepted ?? []);
      check(`${title} ${f.name} refused`, f.refused, b[i]?.refused ?? []);
    });
  kinds('Command', committed.commands, fresh.commands);
  kinds('Event', committed.events, fresh.events);
  kinds('profile Command', committed.profileCommands, fresh.profileCommands);
  committed.rows.forEach((r, i) => {
    check(`§${r.section} ${r.trigger} positive`, r.positive, fresh.rows[i]?.positive ?? []);
    check(`§${r.section} ${r.trigger} negative`, r.negative, fresh.rows[i]?.negative ?? []);
  });
  return unbacked;
}

function cite(tests: readonly string[]): string {
  return tests.length === 0 ? '—' : tests.map((n) => `\`${n}\``).join(', ');
}

/** The claim, as the evidence and the known departures allow it. */
export function claimOf(report: ConformanceReport): string {
  const complete = report.gaps.length === 0 && KNOWN_DEPARTURES.length === 0;
  if (complete) {
    return 'This Group Authority **claims MissionWeaveProtocol 0.1 conformance** as a Group Authority, in the terms of §22: every core Command and Event kind has positive and negative evidence on the real pipeline, every transition row of §7.1 and §10.2 has both, and no departure is known.';
  }
  const parts: string[] = [];
  if (report.gaps.length > 0) parts.push(`${report.gaps.length} gap${report.gaps.length === 1 ? '' : 's'} in the evidence`);
  if (KNOWN_DEPARTURES.length > 0) parts.push(`${KNOWN_DEPARTURES.length} known departure${KNOWN_DEPARTURES.length === 1 ? '' : 's'} from the spec`);
  return `This Group Authority **claims only the narrower verified subset** of MissionWeaveProtocol 0.1 that the report shows (§22: "otherwise it MUST report the narrower verified subset explicitly"), because of ${parts.join(' and ')}, each named below.`;
}

function kindTable(title: string, findings: readonly KindFinding[], acceptedTitle: string, refusedTitle: string): string[] {
  return [
    `| ${title} | ${acceptedTitle} | ${refusedTitle} |`,
    '| --- | --- | --- |',
    ...findings.map((f) => `| \`${f.name}\` | ${cite(f.accepted)} | ${cite(f.refused)} |`),
  ];
}

function rowTable(rows: readonly RowFinding[]): string[] {
  return [
    '| § | Current state | Command or cause | Next state | Positive evidence | Negative evidence |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((finding, i) => {
      const row = TRANSITION_ROWS[i] as TransitionRow;
      const pos = row.positive === undefined ? cite(finding.positive) : `${row.positive.says}: ${cite(finding.positive)}`;
      const neg = row.negative === undefined ? cite(finding.negative) : `${row.negative.says}: ${cite(finding.negative)}`;
      return `| ${finding.section} | ${finding.current} | ${finding.trigger} | ${finding.next} | ${pos} | ${neg} |`;
    }),
  ];
}

/** The claim block of docs/conformance-claim.md: the claim, what stands in its way, and where the evidence is. */
export function readmeClaim(report: ConformanceReport): string {
  const lines = [claimOf(report), ''];
  if (KNOWN_DEPARTURES.length > 0) {
    lines.push('Known departures, each to be fixed (issue 28):', '');
    for (const d of KNOWN_DEPARTURES) lines.push(`* ${d}`);
    lines.push('');
  }
  if (report.gaps.length > 0) {
    lines.push('Gaps in the evidence:', '');
    for (const g of report.gaps) lines.push(`* ${g}`);
    lines.push('');
  }
  const rowsShown = report.rows.filter((r) => r.positive.length > 0 && r.negative.length > 0).length;
  const kindsShown = report.commands.filter((c) => c.accepted.length > 0 && c.refused.length > 0).length;
  const eventsShown = report.events.filter((e) => e.accepted.length > 0 && e.refused.length > 0).length;
  lines.push(
    `The evidence, generated by \`npm test\` from what the real pipeline (PostgreSQL, \`GroupAuthority.submit\`) accepted and refused in every test: ${kindsShown} of ${report.commands.length} Command kinds, ${eventsShown} of ${report.events.length} Event kinds and ${rowsShown} of ${report.rows.length} transition rows with positive and negative evidence — each with the tests that showed it in [docs/conformance.md](conformance.md).`,
  );
  return lines.join('\n');
}

export function reportMarkdown(report: ConformanceReport): string {
  return [
    '# Conformance report (generated)',
    '',
    'Generated by `npm test` (scripts/runTests.mjs) from what the real pipeline — PostgreSQL and',
    '`GroupAuthority.submit`, in process or in the nodes the tests start — accepted and refused while',
    'every test ran (src/app/evidence/). A whole `npm test` run fails when this file differs from what',
    'it saw — a finding shown or not, or none of its cited tests showing it; `npm run conformance:write`',
    'rewrites it (with docs/conformance.json, its data) and the claim in docs/conformance-claim.md from the last run.',
    'Refusals count from the Group Authority\'s stateful checks on (receipts, admission, Session,',
    'authority, the kind\'s rules); a Command refused earlier (schema, signature) says nothing of its',
    'kind. Tests are named by file (`workOffers.int` is `test/workOffers.int.test.ts`); at most',
    `${CITED} are cited per finding. Tests whose cases are drawn at random each run (${UNCOUNTED_SOURCES.map((s) => `\`${testName(s)}\``).join(', ')})`,
    'do not count, so that the report is the same every run.',
    '',
    '## The claim',
    '',
    readmeClaim(report).replace('[docs/conformance.md](conformance.md)', 'the tables below'),
    '',
    '## Command kinds (§15.1 and the reference core\'s `ext.missionweaveprotocol.*`, and our own)',
    '',
    ...kindTable('Command kind', report.commands, 'Accepted', 'Refused'),
    '',
    '## Event kinds (§15.2)',
    '',
    'An Event kind\'s negative evidence is a Command that would append it refused.',
    '',
    ...kindTable('Event kind', report.events, 'Appended', 'Its Commands refused'),
    '',
    '## Transition rows (§7.1, §10.2)',
    '',
    'Positive: an accepted Command of the row moved its target from the row\'s current state to its',
    'next state. Negative: a Command of the row refused by the state machine',
    '(`INVALID_STATE_TRANSITION`, or `WORK_ALREADY_OWNED` for a WorkItem another owner holds) while its',
    'target stood in a state the row does not start from.',
    'A row that is a cause says what counts instead.',
    '',
    ...rowTable(report.rows),
    '',
    '## Extension Profile kinds (outside the §22 claim)',
    '',
    ...kindTable('Command kind', report.profileCommands, 'Accepted', 'Refused'),
    '',
  ].join('\n');
}
