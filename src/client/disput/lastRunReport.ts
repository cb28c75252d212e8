/**
 * `last-run.md`: what the last `check` saw, for the human §8 stops for. Markdown because the
 * human reads it next to the turn files; local (seed §2) because it describes this clone's run.
 */

import type { CheckOutcome } from './checks.js';
import type { GuardedRun } from './guards.js';
import type { InvariantReport } from './invariants.js';

function runLine(label: string, run: GuardedRun | undefined): string[] {
  if (run === undefined) return [];
  if (run.refused) return [`- ${label}: refused by deny pattern \`${run.pattern}\``];
  const status = run.timedOut ? 'timed out' : `exit ${run.code}`;
  const tail = `${run.stdout}${run.stderr}`.trimEnd();
  return [`- ${label}: ${status}${run.truncated ? ' (output truncated)' : ''}`, ...(tail.length === 0 ? [] : ['', '```', tail, '```', ''])];
}

export function renderLastRun(at: string, report: InvariantReport, checks: readonly CheckOutcome[] | null): string {
  const ok = report.ok && (checks ?? []).every((c) => c.ok);
  const lines = [`# disput check — ${ok ? 'OK' : 'FAILED'}`, '', `At ${at}, HEAD ${report.head}.`, ''];
  if (report.turnFile !== undefined) lines.push(`Turn ${report.turnFile.number}: ${report.turnFile.participant}, ${report.turnFile.role} (${report.turnFile.path}).`, '');
  lines.push('## Invariants (§8.1–8.6)', '');
  if (report.failures.length === 0) lines.push('- all hold');
  for (const failure of report.failures) lines.push(`- §8.${failure.invariant} \`${failure.reason}\`: ${failure.message}`);
  lines.push('', '## Checks (§8.7)', '');
  if (checks === null) lines.push('- not run: the turn is not a clean commit on top of the old HEAD');
  else if (checks.length === 0) lines.push('- none declared');
  for (const check of checks ?? []) {
    lines.push(`### ${check.name} (${check.policy}) — ${check.ok ? 'ok' : check.reason}`, '');
    lines.push(...runLine('before the turn', check.before), ...runLine('after the turn', check.after), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
