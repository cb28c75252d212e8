/**
 * `.disput/backlog.md` as §7.4 reads it: the highest open task that is not [USER]. The seed does
 * not fix the file's format; ours is the Markdown task list: `- [ ] task` is open, `- [x] task`
 * done, and a task whose text holds `[USER]` is the human's. Other lines are prose.
 */

import type { BacklogSummary } from './disputTypes.js';

const TASK = /^\s*[-*] \[( |x|X)\] (.*\S.*)$/;
/** The top task's text, as `disput next` shows it; a title, not the task's whole description. */
const NEXT_MAX_CHARS = 200;

export function summarizeBacklog(text: string): BacklogSummary {
  return summarize(text, false);
}

/**
 * The backlog as it may have stood before the turn that sends it: its ticked tasks open again.
 * Only the first turn needs it: no earlier turn sent a backlog, and the first turn's own file
 * already ticks the task it did, so read as is it could make the turn's own player late (§7.4).
 */
export function backlogBeforeFirstTurn(text: string): BacklogSummary {
  return summarize(text, true);
}

function summarize(text: string, doneAsOpen: boolean): BacklogSummary {
  const open: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = TASK.exec(line);
    if (match !== null && (match[1] === ' ' || doneAsOpen)) open.push((match[2] as string).trim());
  }
  const next = open.find((task) => !task.includes('[USER]'));
  return { open: open.length, next: next === undefined ? null : [...next].slice(0, NEXT_MAX_CHARS).join('') };
}
