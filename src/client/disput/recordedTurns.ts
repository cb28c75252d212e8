/**
 * Issue 15's « the folder and the Group must agree »: every turn the Group recorded carries its
 * file exactly as committed, so `check` compares each with `.disput/turns/` at a commit. A file
 * that differs, or is gone, was changed after it was recorded (rule 2); a file the Group does not
 * hold was never played through it (the turn being checked is one, until `play` records it).
 */

import { fileAt, filesIn } from './gitFacts.js';
import { TURNS_DIR } from './invariants.js';

/** A turn as the Group recorded it: its file name and the text it carried. */
export interface RecordedTurnFile {
  readonly fileName: string;
  readonly text: string;
}

export type Disagreement =
  | { readonly reason: 'turn_file_differs'; readonly fileName: string }
  | { readonly reason: 'turn_file_absent'; readonly fileName: string }
  | { readonly reason: 'turn_file_unrecorded'; readonly fileName: string };

export async function compareRecordedTurns(repo: string, commit: string, recorded: readonly RecordedTurnFile[]): Promise<Disagreement[]> {
  const inFolder = new Set(await filesIn(repo, commit, TURNS_DIR));
  const disagreements: Disagreement[] = [];
  for (const turn of recorded) {
    if (!inFolder.has(turn.fileName)) {
      disagreements.push({ reason: 'turn_file_absent', fileName: turn.fileName });
      continue;
    }
    const bytes = await fileAt(repo, commit, `${TURNS_DIR}/${turn.fileName}`);
    if (!bytes.equals(Buffer.from(turn.text, 'utf8'))) disagreements.push({ reason: 'turn_file_differs', fileName: turn.fileName });
  }
  const known = new Set(recorded.map((turn) => turn.fileName));
  for (const fileName of [...inFolder].sort()) if (!known.has(fileName)) disagreements.push({ reason: 'turn_file_unrecorded', fileName });
  return disagreements;
}
