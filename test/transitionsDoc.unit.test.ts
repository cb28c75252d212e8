/**
 * docs/transitions.md describes each Command kind in prose; the line above each description —
 * who may send it, the Mission states it needs, the Signed Document it embeds and the Events it
 * may emit — is generated from the kind registry, so that it cannot drift from the code. A kind
 * the prose does not describe yet gets its line under "Kinds not described above".
 *
 * After a change to a kind's entry: `npm run transitions:write` (MW_WRITE_TRANSITIONS=1) rewrites
 * the generated lines, then review the diff.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreRegistry } from './support/coreDecider.js';

const coreKinds = coreRegistry();

const FILE = new URL('../docs/transitions.md', import.meta.url);
const OPEN = '<!-- kind header: generated from the kind registry by `npm run transitions:write` -->';
const CLOSE = '<!-- /kind header -->';
const APPENDIX = '## Kinds not described above';
const HEADER = new RegExp(`${escape(OPEN)}\\n[^\\n]*\\n${escape(CLOSE)}\\n`, 'g');

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One kind's facts from its registry entry, in one line. */
function headerOf(name: string): string {
  const entry = coreKinds.kind(name);
  if (entry === undefined) throw new Error(`no kind ${name}`);
  const parts = [`\`${name}\``];
  if (entry.scope === 'organization') parts.push('Organization scope, no Group');
  else {
    parts.push(`sent by ${entry.authority.join(', ')}`);
    if (entry.scope !== 'group') parts.push('founds its Group');
    else parts.push(entry.missionStates === undefined ? 'Mission in any live state' : `Mission ${entry.missionStates.join(', ')}`);
    if (entry.assigns === true) parts.push('a Coordinator assignment');
    if (entry.ancestry !== undefined) parts.push('locks the ancestor Groups');
  }
  if (entry.embedded !== undefined) parts.push(`embeds ${entry.embedded.many === true ? 'an array of ' : ''}${entry.embedded.document} at \`${entry.embedded.member}\``);
  if (entry.scope !== 'organization') parts.push(`Events ${entry.events.map((event) => `\`${event.kind}\``).join(', ')}`);
  return `${OPEN}\n<sub>${parts.join(' · ')}</sub>\n${CLOSE}\n`;
}

/** The document with every generated line removed, and the appendix with it. */
function prose(text: string): string {
  const withoutHeaders = text.replace(HEADER, '');
  const at = withoutHeaders.indexOf(`\n${APPENDIX}\n`);
  return at === -1 ? withoutHeaders : `${withoutHeaders.slice(0, at).trimEnd()}\n`;
}

/** The prose with each kind's line above the first paragraph whose first line names it in bold. */
function withHeaders(text: string): string {
  let document = prose(text);
  const missing: string[] = [];
  for (const name of coreKinds.kindNames) {
    const named = document.search(new RegExp(`\\n[^\\n]*\\*\\*\`${escape(name)}\`\\*\\*`));
    if (named === -1) {
      missing.push(name);
      continue;
    }
    let start = named + 1;
    while (document.startsWith(OPEN, start)) start = document.indexOf(`${CLOSE}\n`, start) + CLOSE.length + 1;
    document = `${document.slice(0, start)}${headerOf(name)}${document.slice(start)}`;
  }
  if (missing.length > 0) document += `\n${APPENDIX}\n\n${missing.map((name) => headerOf(name)).join('\n')}`;
  return document;
}

describe('docs/transitions.md', () => {
  const text = readFileSync(FILE, 'utf8');
  if (process.env['MW_WRITE_TRANSITIONS'] === '1') writeFileSync(FILE, withHeaders(text));

  it('heads each kind with its registry entry, as npm run transitions:write writes it', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(withHeaders(readFileSync(FILE, 'utf8')));
  });

  it('has one generated line for every registered kind', () => {
    const headed = [...readFileSync(FILE, 'utf8').matchAll(new RegExp(`${escape(OPEN)}\\n<sub>\`([^\`]+)\``, 'g'))].map((m) => m[1]);
    expect(headed.sort()).toEqual([...coreKinds.kindNames].sort());
  });
});
