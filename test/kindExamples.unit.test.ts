/**
 * Every registered core kind carries its example payload beside it (`KindExamples`, in its
 * module's `*Examples.ts`), and the example passes the kind's payload schema: the payload tests
 * (`payloads.unit.test.ts`) derive their tables from these examples, so a kind without one
 * would silently escape them.
 */

import { describe, expect, it } from 'vitest';
import { CORE_MODULES } from '../src/domain/coreModules.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';

const ENTRIES = CORE_MODULES.flatMap((module) => module.kinds.map((entry) => ({ module: module.key, entry })));

describe('core kind examples', () => {
  it('exist for every registered core kind', () => {
    const missing = ENTRIES.filter(({ entry }) => entry.examples === undefined).map(({ module, entry }) => `${module}: ${entry.kind}`);
    expect(missing).toEqual([]);
  });

  it('cover every payload schema, and nothing else', () => {
    expect(ENTRIES.map(({ entry }) => entry.kind).sort()).toEqual(schemaRegistry().payloadKinds);
  });

  it.each(ENTRIES.map(({ entry }) => [entry.kind, entry] as const))('%s: the example passes its payload schema', (kind, entry) => {
    expect(schemaRegistry().validatePayload(kind, structuredClone(entry.examples?.payload))).toEqual({ ok: true });
  });

  it.each(ENTRIES.map(({ entry }) => [entry.kind, entry] as const))('%s: the example carries its required and coupled members', (kind, entry) => {
    const members = Object.keys(entry.examples?.payload ?? {});
    expect(members).toEqual(expect.arrayContaining([...(entry.examples?.required ?? []), ...(entry.examples?.coupled ?? [])]));
  });
});
