/**
 * The README's conformance claim (§22) stays true: the Command and Event kinds it claims are
 * exactly those the kind registry decides and appends, each cited test file exists and exercises
 * its kind with positive and negative evidence, what it lists as missing is the rest of the
 * spec's lists, and its transition rows are the rows of §7.1 and §10.2.
 */

import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { coreKinds } from '../src/domain/kinds/coreKinds.js';
import { ORGANIZATION_EVENT_KINDS } from '../src/domain/organization/organization.js';
import { describeWithSpec, specBytes } from './support/spec.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function section(name: string): string {
  const match = new RegExp(`<!-- conformance:${name} -->\\n([\\s\\S]*?)<!-- /conformance:${name} -->`).exec(README);
  if (match === null) throw new Error(`README has no conformance:${name} section`);
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

function testFile(name: string): string {
  const path = new URL(name.endsWith('.unit') ? `./domain/${name}.test.ts` : `./${name}.test.ts`, import.meta.url);
  expect(existsSync(path), `${name} is a test file`).toBe(true);
  return readFileSync(path, 'utf8');
}

const claimedCommands = tableRows(section('commands'));
const claimedEvents = codes(section('events'));

it('claims exactly the Command kinds the registry decides, with decider and pipeline evidence for each', () => {
  expect(claimedCommands.map((row) => codes(row[0] ?? '')[0]).sort()).toEqual(coreKinds.kindNames);
  for (const [kindCell, deciders, pipeline] of claimedCommands) {
    const kind = codes(kindCell ?? '')[0] as string;
    for (const name of codes(deciders ?? '')) {
      const text = testFile(name);
      expect(text, `${name} names ${kind}`).toContain(`'${kind}'`);
      expect(text, `${name} has accepted and refused cases`).toMatch(/\.then\(/);
      expect(text).toMatch(/thenFails\(/);
    }
    expect(codes(pipeline ?? '').length, `${kind} has pipeline evidence`).toBeGreaterThan(0);
    for (const name of codes(pipeline ?? '')) expect(testFile(name), `${name} names ${kind}`).toContain(`'${kind}'`);
  }
});

it('claims exactly the Event kinds the registry appends', () => {
  expect([...claimedEvents].sort()).toEqual([...coreKinds.eventNames, ...ORGANIZATION_EVENT_KINDS].sort());
});

it('lists as missing only kinds the registry does not have, and every payload schema is claimed or missing', () => {
  const missing = codes(section('commands-missing'));
  for (const kind of missing) expect(coreKinds.kind(kind), kind).toBeUndefined();
  for (const kind of codes(section('events-missing'))) expect(claimedEvents).not.toContain(kind);
  const schemas = readFileSync(new URL('../src/protocol/schemas/payloadTypes.ts', import.meta.url), 'utf8');
  const payloadKinds = [...schemas.matchAll(/^ {2}"([a-z._]+)": /gm)].map((m) => m[1] as string);
  expect([...coreKinds.kindNames, ...missing].sort()).toEqual([...payloadKinds].sort());
});

describeWithSpec('the claim against the spec', () => {
  const spec = specBytes('spec/PROTOCOL.md').toString('utf8');
  const block = (after: string): string[] => {
    const start = spec.indexOf('```text', spec.indexOf(after));
    return spec.slice(start + 7, spec.indexOf('```', start + 7)).split(/\s+/).filter((w) => w !== '');
  };
  const transitionRows = (heading: string): string[][] => {
    const from = spec.indexOf(heading);
    const table = spec.slice(spec.indexOf('| Current state |', from));
    return tableRows(table.slice(0, table.indexOf('\n\n')));
  };

  it('covers every core Command and Event kind of §15.1–15.2, claimed or listed as missing', () => {
    const commands = [...claimedCommands.map((row) => codes(row[0] ?? '')[0]), ...codes(section('commands-missing'))];
    for (const kind of block('Core Command kinds are:')) expect(commands, kind).toContain(kind);
    const events = [...claimedEvents, ...codes(section('events-missing'))];
    for (const kind of block('Core Event kinds are the past-tense facts')) expect(events, kind).toContain(kind);
  });

  it('lists every transition row of §7.1 and §10.2 in order, a covered row only for a decided kind', () => {
    const rows = tableRows(section('transitions'));
    for (const [number, heading] of [['7.1', '### 7.1 Creation'], ['10.2', '### 10.2']] as const) {
      const ours = rows.filter((row) => row[0] === number);
      const theirs = transitionRows(heading);
      expect(ours.length, `§${number} rows`).toBe(theirs.length);
      ours.forEach((row, i) => {
        const kind = codes(row[2] ?? '')[0];
        if (kind !== undefined) expect(codes(theirs[i]?.[1] ?? ''), `§${number} row ${i + 1}`).toContain(kind);
        expect(row[3]).toMatch(/^(covered|partly: .+|not yet)$/);
        if (row[3] === 'covered' && kind !== undefined) expect(coreKinds.kind(kind), `${kind} is decided`).toBeDefined();
        if (row[3] === 'not yet' && kind !== undefined && !kind.startsWith('mission.')) expect(coreKinds.kind(kind), `${kind} is not decided`).toBeUndefined();
      });
    }
  });
});

it('claims full conformance only while nothing is missing and every transition row is covered', () => {
  const claimsFull = README.includes('**claims MissionWeaveProtocol 0.1 conformance**');
  const nothingMissing = codes(section('commands-missing')).length === 0 && codes(section('events-missing')).length === 0;
  const allCovered = tableRows(section('transitions')).every((row) => row[3] === 'covered');
  expect(claimsFull).toBe(nothingMissing && allCovered);
  // Every test file the §22 table cites exists.
  const table = README.slice(README.indexOf('| §22 condition |'), README.indexOf('We do not claim a portable'));
  for (const name of codes(table).filter((c) => /^[a-zA-Z]+\.(unit|int|e2e|conformance)$/.test(c))) {
    const path = name.endsWith('.unit') && existsSync(new URL(`./domain/${name}.test.ts`, import.meta.url)) ? `./domain/${name}.test.ts` : `./${name}.test.ts`;
    expect(existsSync(new URL(path, import.meta.url)), `${name} is a test file`).toBe(true);
  }
});
