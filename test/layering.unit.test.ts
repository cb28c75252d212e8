/**
 * The layer rule of eslint.config.js, exercised: each layer may import the layers below it and
 * is refused the ones above or beside it (../shared/STYLE.md, "Layers, as folders").
 */

import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') });

/** The no-restricted-imports findings for one import line placed in `file`. */
async function refusals(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import type { X } from '${specifier}';\nexport type Y = X;\n`, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const CASES: readonly [file: string, allowed: readonly string[], refused: readonly string[]][] = [
  ['src/protocol/x.ts', ['./jcs.js'], ['../domain/model.js', '../client/agent.js']],
  ['src/domain/x.ts', ['../protocol/jcs.js'], ['../store/pool.js', '../app/wireError.js']],
  ['src/store/x.ts', ['../protocol/jcs.js', './pool.js'], ['../app/wireError.js', '../domain/model.js']],
  ['src/app/x.ts', ['../domain/model.js', '../store/pool.js'], ['../delivery/outbox.js', '../transport/limits.js', '../server.js']],
  ['src/delivery/x.ts', ['../app/wireError.js', '../store/channels.js', '../protocol/frames.js', '../domain/coreModules.js'], ['../transport/frames.js', '../cli/home.js']],
  ['src/transport/x.ts', ['../app/groupAccess.js', '../delivery/outbox.js'], ['../store/pool.js', '../store/sql/memberships.js', '../domain/readAccess.js', '../cli/home.js']],
  ['src/client/x.ts', ['../protocol/jcs.js'], ['../app/wireError.js', '../transport/frames.js']],
  ['src/home/x.ts', ['../app/settings.js', '../protocol/jcs.js'], ['../cli/args.js', '../transport/limits.js', '../store/pool.js']],
  ['src/cli/x.ts', ['../store/pool.js', '../transport/listener.js', '../server.js', '../home/home.js'], ['../../tools/bench/fuzz.js']],
  ['src/server.ts', ['./app/groupAuthority.js', './home/home.js', './transport/listener.js'], ['./cli/args.js', './cli/main.js', '../tools/bench/fuzz.js']],
];

describe('eslint layer rule', () => {
  for (const [file, allowed, refused] of CASES) {
    it(`${file.split('/')[1]}: allows ${allowed.join(', ')}${refused.length === 0 ? '' : `; refuses ${refused.join(', ')}`}`, async () => {
      for (const specifier of allowed) expect(await refusals(file, specifier), specifier).toEqual([]);
      for (const specifier of refused) expect(await refusals(file, specifier), specifier).toHaveLength(1);
    }, 60_000);
  }
});
