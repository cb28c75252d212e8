/// <reference types="vite/client" />
/**
 * Every Group kind's accepted case, collected from `cases/<kind>.case.ts` (`cases/kindCase.ts`)
 * rather than listed here: a new kind adds its case file and edits no table. The common-checks
 * tests fail when a registered Group kind has no case, a case names a kind the registry does not
 * know, or a file is not named after the kind its case accepts.
 */

import type { KindCase, NamedKindCase } from './cases/kindCase.js';

const PREFIX = './cases/';
const SUFFIX = '.case.ts';

/** Each case file's `CASE`, by the file's path (vite resolves the pattern when it loads this file). */
const FILES = import.meta.glob<NamedKindCase>('./cases/*.case.ts', { eager: true, import: 'CASE' });

/** Each case file, with the kind its name gives and the case it exports. */
export const CASE_FILES: readonly { readonly named: string; readonly accepted: NamedKindCase }[] = Object.entries(FILES).map(([path, accepted]) => ({
  named: path.slice(PREFIX.length, -SUFFIX.length),
  accepted,
}));

/** One Command per Group kind that its usual sender may send and that is accepted, by kind. */
export const CASES: Readonly<Record<string, KindCase>> = Object.fromEntries(CASE_FILES.map(({ accepted }) => [accepted.kind, accepted]));
