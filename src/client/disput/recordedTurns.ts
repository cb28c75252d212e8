/**
 * Issue 15's « the folder and the Group must agree »: every turn the Group recorded carries its
 * file exactly as committed, so `check` compares each with `.disput/turns/` at a commit. A file
 * that differs, or is gone, was changed after it was recorded (rule 2); a file the Group does not
 * hold was never played through it (the turn being checked is one, until `play` records it).
 *
 * Two git calls whatever the number of turns: the folder's listing, then the recorded files'
 * bytes in one `cat-file --batch` (`blobs`), compared byte for byte with the recorded texts.
 */

import { blobs, entriesIn } from './gitFacts.js';
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
  const inFolder = new Map((await entriesIn(repo, commit, TURNS_DIR)).map((entry) => [entry.name, entry]));
  // A recorded name that is a folder (or a submodule) in the tree is no longer its file: it differs.
  const files = recorded.flatMap((turn) => {
    const entry = inFolder.get(turn.fileName);
    return entry?.type === 'blob' && entry.size !== undefined ? [{ turn, object: entry.object, size: entry.size }] : [];
  });
  const bytes = new Map((await blobs(repo, files)).map((read, i) => [(files[i] as (typeof files)[number]).turn, read]));
  const disagreements: Disagreement[] = [];
  for (const turn of recorded) {
    const read = bytes.get(turn);
    if (!inFolder.has(turn.fileName)) disagreements.push({ reason: 'turn_file_absent', fileName: turn.fileName });
    else if (read === undefined || !read.equals(Buffer.from(turn.text, 'utf8'))) disagreements.push({ reason: 'turn_file_differs', fileName: turn.fileName });
  }
  const known = new Set(recorded.map((turn) => turn.fileName));
  for (const fileName of [...inFolder.keys()].sort()) if (!known.has(fileName)) disagreements.push({ reason: 'turn_file_unrecorded', fileName });
  return disagreements;
}
