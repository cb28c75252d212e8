/**
 * `disput check`: the §8 check `play` applies, run on its own and printed, so an agent (or the
 * human §8 stops for) sees before playing whether the turn would be refused, and why. It also
 * compares the folder's turn files with the ones the Group recorded (§3.2, issue 15 « the folder
 * and the Group must agree »): a recorded file changed or gone, or a turn file the Group never
 * recorded besides the turn being checked, fails the check too. `last-run.md` is written by the
 * tool either way.
 */

import { compareRecordedTurns } from '../../client/disput/recordedTurns.js';
import { LAST_RUN } from '../../client/disput/localFiles.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { readDialogue } from './dialogue.js';
import type { NodeLink } from './nodeLink.js';
import { freshTurnFiles } from './playTurn.js';
import type { GitRepo, RepoCheck } from './repoChecks.js';

export interface CheckOutput {
  readonly ok: boolean;
  readonly line: string;
  readonly report: JsonObject;
}

export async function checkRepo(link: NodeLink, groupId: string, repo: GitRepo, check: RepoCheck): Promise<CheckOutput> {
  const { state, texts } = readDialogue(await link.events(groupId));
  const head = repo.head();
  const fresh = freshTurnFiles(repo, head, state, texts);
  const fileName = fresh.length === 1 ? fresh[0] : undefined;
  const checked = await check({ repo, state, head, ...(fileName === undefined ? {} : { fileName }) });
  const recorded = [...texts].map(([name, text]) => ({ fileName: name, text }));
  const disagreements = (await compareRecordedTurns(repo.root, head, recorded)).filter((d) => !(d.reason === 'turn_file_unrecorded' && d.fileName === fileName));
  const reasons = [...checked.reasons, ...disagreements.map((d) => d.reason)];
  const problems = [...checked.problems, ...disagreements.map((d) => `§3.2 ${d.reason}: ${d.fileName}`)];
  const ok = checked.ok && disagreements.length === 0;
  const report: JsonObject = { ...checked.report, ok, fileName: fileName ?? null, head, reasons, problems, disagreements: disagreements.map((d) => ({ ...d })), lastRun: LAST_RUN };
  const notes = checked.notes.length === 0 ? '' : ` (${checked.notes.join('; ')})`;
  const what = fileName ?? 'no new turn file';
  const line = ok ? `check passed: ${what} at ${head.slice(0, 7)}${notes}` : `check failed: ${what} at ${head.slice(0, 7)}: ${reasons.join(', ')}${notes}\n  ${problems.join('\n  ')}`;
  return { ok, line, report };
}
