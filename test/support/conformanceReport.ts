/**
 * The conformance report (§22), made from what `npm test` recorded on the real pipeline
 * (src/app/evidence/): for every core Command and Event kind, whether a test saw it accepted and
 * refused, and for every transition row of §7.1 and §10.2, its positive and negative evidence.
 * The claim follows from that and from the known departures, never from prose:
 * `docs/conformance.md` is this module's output, and the README's claim block its summary.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvidenceLine } from '../../src/app/evidence/evidenceFile.js';
import { coreKinds } from '../../src/domain/kinds/coreKinds.js';
import { CARD_REGISTER, CARD_REGISTERED, SESSION_OPEN, SESSION_OPENED } from '../../src/domain/organization/organization.js';
import { KNOWN_DEPARTURES } from './conformanceDepartures.js';
import { negativeFor, positiveFor, TRANSITION_ROWS, type TransitionRow } from './transitionRows.js';

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

function cite(sources: Iterable<string>): string {
  const names = [...new Set([...sources].map(testName))].sort();
  if (names.length === 0) return '—';
  const shown = names.slice(0, CITED).map((n) => `\`${n}\``).join(', ');
  return names.length > CITED ? `${shown} and ${names.length - CITED} more` : shown;
}

interface KindFinding {
  readonly name: string;
  readonly accepted: readonly string[];
  readonly refused: ReadonlyMap<string, readonly string[]>;
}

interface RowFinding {
  readonly row: TransitionRow;
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

function findingsOf(lines: readonly EvidenceLine[]): { accepted: Map<string, string[]>; refused: Map<string, Map<string, string[]>>; appended: Map<string, string[]> } {
  const accepted = new Map<string, string[]>();
  const appended = new Map<string, string[]>();
  const refused = new Map<string, Map<string, string[]>>();
  for (const line of lines) {
    if (line.fact === 'accepted') push(accepted, line.kind, line.source);
    if (line.fact === 'appended') push(appended, line.event, line.source);
    if (line.fact === 'refused') {
      const codes = refused.get(line.kind) ?? new Map<string, string[]>();
      refused.set(line.kind, codes);
      push(codes, line.code, line.source);
    }
  }
  return { accepted, refused, appended };
}

export function buildReport(recorded: readonly EvidenceLine[]): ConformanceReport {
  const lines = recorded.filter((l) => !UNCOUNTED_SOURCES.includes(l.source));
  const { accepted, refused, appended } = findingsOf(lines);
  const gaps: string[] = [];
  const commands = coreKinds.kindNames.map((name) => ({ name, accepted: accepted.get(name) ?? [], refused: refused.get(name) ?? new Map<string, string[]>() }));
  for (const c of commands) {
    if (c.accepted.length === 0) gaps.push(`\`${c.name}\`: no test saw it accepted on the pipeline`);
    if (c.refused.size === 0) gaps.push(`\`${c.name}\`: no test saw it refused on the pipeline`);
  }
  const byEvent = emitters();
  const events = [...byEvent.keys()].sort().map((name) => {
    const refusals = new Map<string, string[]>();
    for (const kind of byEvent.get(name) ?? []) for (const [code, sources] of refused.get(kind) ?? []) for (const s of sources) push(refusals, code, s);
    return { name, accepted: appended.get(name) ?? [], refused: refusals };
  });
  for (const e of events) {
    if (e.accepted.length === 0) gaps.push(`\`${e.name}\`: no test saw it appended on the pipeline`);
    if (e.refused.size === 0) gaps.push(`\`${e.name}\`: no test saw a Command that appends it refused`);
  }
  const rows = TRANSITION_ROWS.map((row) => ({
    row,
    positive: lines.filter((l) => positiveFor(row, l)).map((l) => l.source),
    negative: lines.filter((l) => negativeFor(row, l)).map((l) => l.source),
  }));
  for (const { row, positive, negative } of rows) {
    const what = `§${row.section} ${row.current} → ${row.trigger}`;
    if (positive.length === 0) gaps.push(`${what}: no positive evidence`);
    if (negative.length === 0) gaps.push(`${what}: no negative evidence`);
  }
  const profileNames = [...new Set([...accepted.keys(), ...refused.keys()])].filter((k) => coreKinds.kind(k) === undefined).sort();
  const profileCommands = profileNames.map((name) => ({ name, accepted: accepted.get(name) ?? [], refused: refused.get(name) ?? new Map<string, string[]>() }));
  return { commands, events, rows, profileCommands, gaps };
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

function refusedCell(refused: ReadonlyMap<string, readonly string[]>): string {
  if (refused.size === 0) return '—';
  const codes = [...refused.keys()].sort().map((c) => `\`${c}\``).join(', ');
  return `${codes} (${cite([...refused.values()].flat())})`;
}

function kindTable(title: string, findings: readonly KindFinding[], acceptedTitle: string, refusedTitle: string): string[] {
  return [
    `| ${title} | ${acceptedTitle} | ${refusedTitle} |`,
    '| --- | --- | --- |',
    ...findings.map((f) => `| \`${f.name}\` | ${cite(f.accepted)} | ${refusedCell(f.refused)} |`),
  ];
}

function rowTable(rows: readonly RowFinding[]): string[] {
  return [
    '| § | Current state | Command or cause | Next state | Positive evidence | Negative evidence |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(({ row, positive, negative }) => {
      const pos = row.positive === undefined ? cite(positive) : `${row.positive.says}: ${cite(positive)}`;
      const neg = row.negative === undefined ? cite(negative) : `${row.negative.says}: ${cite(negative)}`;
      return `| ${row.section} | ${row.current} | ${row.trigger} | ${row.next} | ${pos} | ${neg} |`;
    }),
  ];
}

/** The README's claim block: the claim, what stands in its way, and where the evidence is. */
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
  const kindsShown = report.commands.filter((c) => c.accepted.length > 0 && c.refused.size > 0).length;
  const eventsShown = report.events.filter((e) => e.accepted.length > 0 && e.refused.size > 0).length;
  lines.push(
    `The evidence, generated by \`npm test\` from what the real pipeline (PostgreSQL, \`GroupAuthority.submit\`) accepted and refused in every test: ${kindsShown} of ${report.commands.length} Command kinds, ${eventsShown} of ${report.events.length} Event kinds and ${rowsShown} of ${report.rows.length} transition rows with positive and negative evidence — each with the tests that showed it in [docs/conformance.md](docs/conformance.md).`,
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
    'it saw; `npm run conformance:write` rewrites it, and the README\'s claim, from the last run.',
    'Refusals count from the Group Authority\'s stateful checks on (receipts, admission, Session,',
    'authority, the kind\'s rules); a Command refused earlier (schema, signature) says nothing of its',
    'kind. Tests are named by file (`workOffers.int` is `test/workOffers.int.test.ts`); at most',
    `${CITED} are cited per finding. Tests whose cases are drawn at random each run (${UNCOUNTED_SOURCES.map((s) => `\`${testName(s)}\``).join(', ')})`,
    'do not count, so that the report is the same every run.',
    '',
    '## The claim',
    '',
    readmeClaim(report).replace('[docs/conformance.md](docs/conformance.md)', 'the tables below'),
    '',
    '## Command kinds (§15.1 and the reference core\'s `ext.missionweaveprotocol.*`, and our own)',
    '',
    ...kindTable('Command kind', report.commands, 'Accepted', 'Refused: codes (tests)'),
    '',
    '## Event kinds (§15.2)',
    '',
    'An Event kind\'s negative evidence is a Command that would append it refused.',
    '',
    ...kindTable('Event kind', report.events, 'Appended', 'Its Commands refused: codes (tests)'),
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
    ...kindTable('Command kind', report.profileCommands, 'Accepted', 'Refused: codes (tests)'),
    '',
  ].join('\n');
}
