/**
 * The conformance claim (§22) is made from evidence: the transition rows the report matches
 * evidence against are the spec's rows of §7.1 and §10.2, the kinds it reports cover the spec's
 * lists of §15.1–15.2, and the claim (docs/conformance-claim.md) names every known departure and claims nothing the
 * committed report does not. (That the report is what a run showed is checked after a whole
 * `npm test` run: test/conformanceReport.check.ts.)
 */

import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreRegistry } from './support/coreDecider.js';
import { ORGANIZATION_EVENT_KINDS } from '../src/domain/organization/organization.js';
import { KNOWN_DEPARTURES } from './support/conformanceDepartures.js';
import { describeWithSpec, specBytes } from './support/spec.js';
import { TRANSITION_ROWS } from './support/transitionRows.js';

const coreKinds = coreRegistry();

/** The claim, moved out of the README into its own page. */
const README = readFileSync(new URL('../docs/conformance-claim.md', import.meta.url), 'utf8');
const REPORT = new URL('../docs/conformance.md', import.meta.url);

function claimBlock(): string {
  const match = /<!-- conformance:claim -->\n([\s\S]*?)\n<!-- \/conformance:claim -->/.exec(README);
  if (match === null) throw new Error('docs/conformance-claim.md has no conformance:claim block');
  return match[1] as string;
}

function codes(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

describeWithSpec('the report against the spec', () => {
  const spec = specBytes('spec/PROTOCOL.md').toString('utf8');
  const block = (after: string): string[] => {
    const start = spec.indexOf('```text', spec.indexOf(after));
    return spec.slice(start + 7, spec.indexOf('```', start + 7)).split(/\s+/).filter((w) => w !== '');
  };
  const specRows = (heading: string): string[][] => {
    const from = spec.indexOf(heading);
    const table = spec.slice(spec.indexOf('| Current state |', from));
    return tableRows(table.slice(0, table.indexOf('\n\n')));
  };

  it('reports every core Command and Event kind of §15.1–15.2', () => {
    for (const kind of block('Core Command kinds are:')) expect(coreKinds.kindNames, kind).toContain(kind);
    const events = [...coreKinds.eventNames, ...ORGANIZATION_EVENT_KINDS];
    for (const kind of block('Core Event kinds are the past-tense facts')) expect(events, kind).toContain(kind);
  });

  it('matches evidence against every transition row of §7.1 and §10.2, in order, with the row’s own kinds and states', () => {
    for (const [section, heading] of [['7.1', '### 7.1 Creation'], ['10.2', '### 10.2']] as const) {
      const ours = TRANSITION_ROWS.filter((row) => row.section === section);
      const theirs = specRows(heading);
      expect(ours.length, `§${section} rows`).toBe(theirs.length);
      ours.forEach((row, i) => {
        const [current, trigger, next] = theirs[i] as string[];
        expect(row.trigger, `§${section} row ${i + 1}`).toBe(trigger);
        for (const kind of codes(trigger ?? '')) expect(row.kinds, `§${section} row ${i + 1}`).toContain(kind);
        // A state the cell names in code must be the row's; 'none', 'non-terminal' and a Work
        // Proposal are words, not states.
        const currentStates = codes(current ?? '');
        if (currentStates.length > 0) expect([...row.from].sort(), `§${section} row ${i + 1} current`).toEqual([...currentStates].sort());
        const nextStates = codes(next ?? '');
        if (nextStates.length > 0) expect([...row.to].sort(), `§${section} row ${i + 1} next`).toEqual([...nextStates].sort());
        for (const kind of row.kinds) expect(coreKinds.kind(kind), `${kind} is decided`).toBeDefined();
      });
    }
  });
});

it('claims full conformance only while no departure is known, and names every departure', () => {
  const claim = claimBlock();
  const full = claim.includes('**claims MissionWeaveProtocol 0.1 conformance**');
  if (KNOWN_DEPARTURES.length > 0) expect(full).toBe(false);
  for (const departure of KNOWN_DEPARTURES) expect(claim).toContain(departure);
  expect(README.split('**claims MissionWeaveProtocol 0.1 conformance**').length - 1, 'claimed only in the generated block').toBe(full ? 1 : 0);
  expect(existsSync(REPORT), 'docs/conformance.md').toBe(true);
  expect(readFileSync(REPORT, 'utf8')).toContain(claim.split('\n')[0] as string);
});

it('cites only test files that exist in the §22 table', () => {
  const table = README.slice(README.indexOf('| §22 condition |'), README.indexOf('We do not claim a portable'));
  for (const name of codes(table).filter((c) => /^[a-zA-Z]+\.(unit|int|e2e|conformance)$/.test(c))) {
    const path = name.endsWith('.unit') && existsSync(new URL(`./domain/${name}.test.ts`, import.meta.url)) ? `./domain/${name}.test.ts` : `./${name}.test.ts`;
    expect(existsSync(new URL(path, import.meta.url)), `${name} is a test file`).toBe(true);
  }
});
