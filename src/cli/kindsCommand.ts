/**
 * `missionweave kinds [KIND]`: the Command kinds this node accepts — the core's and those of the
 * node's Extension Profiles (Parley v1, disput v0) — one line each: the kind, who may send it and
 * where it comes from. With KIND: its payload schema (schemas/payloads/<kind>.schema.json, or the
 * profile's) and, where the kind carries one, an example payload (its module's `*Examples.ts`),
 * ready for `missionweave command KIND --payload @FILE`. Reads no home and no database.
 */

import { CORE_MODULES } from '../domain/coreModules.js';
import type { KindExamples } from '../domain/kinds/kindTypes.js';
import { NODE_PROFILES } from '../app/nodeProfiles.js';
import { readSchemaDocuments } from '../protocol/schemas/files.js';
import { parseArgs, UsageError } from './args.js';
import { NoInputError } from '../home/usageError.js';

interface KindInfo {
  readonly kind: string;
  readonly authority: readonly string[];
  readonly from: string;
  readonly schema?: Readonly<Record<string, unknown>>;
  readonly examples?: KindExamples;
}

/** Every kind of the core and of the node's profiles, in module order. */
function allKinds(): KindInfo[] {
  const schemas = new Map(readSchemaDocuments().filter((d) => d.role === 'payload').map((d) => [d.name, d.schema as Record<string, unknown>]));
  const core = CORE_MODULES.flatMap((module) =>
    module.kinds.map((entry) => {
      const schema = schemas.get(entry.kind);
      const authority: readonly string[] = 'authority' in entry ? entry.authority : ['organization-authority'];
      return {
        kind: entry.kind,
        authority,
        from: 'core',
        ...(schema === undefined ? {} : { schema }),
        ...(entry.examples === undefined ? {} : { examples: entry.examples }),
      };
    }),
  );
  const profiles = NODE_PROFILES.flatMap(({ profile, name }) =>
    profile.kinds.map((kind) => ({ kind: kind.kind, authority: kind.authority, from: name, schema: kind.payloadSchema })),
  );
  return [...core, ...profiles];
}

export function kindsCommand(argv: readonly string[]): number {
  const args = parseArgs(argv, {});
  if (args.positionals.length > 1) throw new UsageError('usage: missionweave kinds [KIND]');
  const kinds = allKinds();
  const [name] = args.positionals;
  if (name === undefined) {
    const width = Math.max(...kinds.map((k) => k.kind.length));
    process.stdout.write(kinds.map((k) => `${k.kind.padEnd(width)}  ${k.from.padEnd(9)}  sent by ${k.authority.join(' | ')}\n`).join(''));
    return 0;
  }
  const info = kinds.find((k) => k.kind === name);
  if (info === undefined) throw new NoInputError(`no Command kind ${name}; list them with: missionweave kinds`);
  const lines = [
    `${info.kind} (${info.from}), sent by ${info.authority.join(' | ')}`,
    '',
    'payload schema:',
    JSON.stringify(info.schema ?? {}, null, 2),
    '',
    info.examples === undefined ? 'example: none recorded for this kind' : `example payload (required: ${info.examples.required.join(', ') || 'none'}):`,
    ...(info.examples === undefined ? [] : [JSON.stringify(info.examples.payload, null, 2)]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
