/**
 * The kind lists of schemas/command.schema.json and schemas/event.schema.json (`$defs.coreKind`,
 * `$defs.organizationKind`) are generated from the core modules, so that a new core kind is
 * registered once, in its module: the Command schema admits its name, the Event schema its
 * Events' names. (An `ext.` name needs no entry: the schemas admit it as an extension kind.)
 * Entries keep their place; a new kind is appended, a kind no module registers is dropped.
 *
 * After adding, renaming or removing a kind: `npm run schemas:write` (MW_WRITE_SCHEMAS=1)
 * rewrites the lists, then `npm run generate:types` the wire types (or `npm run generate`).
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_MODULES } from '../src/domain/coreModules.js';
import { ORGANIZATION_EVENT_KINDS } from '../src/domain/organization/organization.js';

const COMMAND = new URL('../schemas/command.schema.json', import.meta.url);
const EVENT = new URL('../schemas/event.schema.json', import.meta.url);

type Schema = { $defs: Record<string, { enum: string[] }> };

const ENTRIES = CORE_MODULES.flatMap((module) => module.kinds);
const GROUP_ENTRIES = ENTRIES.flatMap((entry) => (entry.scope === 'organization' ? [] : [entry]));
const core = (name: string) => !name.startsWith('ext.');

/** Each generated list, by schema and `$defs` member, in module order. */
const LISTS: ReadonlyArray<readonly [URL, string, readonly string[]]> = [
  [COMMAND, 'coreKind', GROUP_ENTRIES.map((entry) => entry.kind).filter(core)],
  [COMMAND, 'organizationKind', ENTRIES.flatMap((entry) => (entry.scope === 'organization' ? [entry.kind] : []))],
  [EVENT, 'coreKind', [...new Set(GROUP_ENTRIES.flatMap((entry) => entry.events.map((event) => event.kind)))].filter(core)],
  [EVENT, 'organizationKind', ORGANIZATION_EVENT_KINDS],
];

/** `registered` in the order `listed` has them, then the ones it lacks. */
function stable(listed: readonly string[], registered: readonly string[]): string[] {
  return [...listed.filter((name) => registered.includes(name)), ...registered.filter((name) => !listed.includes(name))];
}

function read(file: URL): Schema {
  return JSON.parse(readFileSync(file, 'utf8')) as Schema;
}

/** The schema in `file` with its generated lists as the modules register them. */
function generated(file: URL): string {
  const schema = read(file);
  for (const [of, member, registered] of LISTS) {
    if (of !== file) continue;
    const list = schema.$defs[member];
    if (list === undefined) throw new Error(`${file.pathname} has no $defs.${member}`);
    list.enum = stable(list.enum, registered);
  }
  return `${JSON.stringify(schema, null, 2)}\n`;
}

describe('the kind lists of the Command and Event schemas', () => {
  if (process.env['MW_WRITE_SCHEMAS'] === '1') for (const file of [COMMAND, EVENT]) writeFileSync(file, generated(file));

  it.each([
    ['command', COMMAND],
    ['event', EVENT],
  ])('%s.schema.json lists the kinds the core modules register, as npm run schemas:write writes them', (_, file) => {
    expect(readFileSync(file, 'utf8')).toBe(generated(file));
  });

  it('name every kind a core module registers outside the ext. namespace', () => {
    for (const [file, member, registered] of LISTS) {
      expect([...read(file).$defs[member]!.enum].sort(), `${file.pathname} $defs.${member}`).toEqual([...registered].sort());
    }
  });
});
