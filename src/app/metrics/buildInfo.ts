/**
 * What a node is built from, for the `missionweave_build_info` metric (issue 33, item 8): the
 * package version, the Node.js version, and the source commit when it is known — `MW_BUILD_COMMIT`
 * (an image build passes it), else the checkout's git HEAD read from its files (a clone or a git
 * worktree; no git binary is run), else `unknown` (an image built without it, a tarball).
 */

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  readonly version: string;
  readonly node: string;
  readonly commit: string;
}

/** The package root: three folders above this file, in src/ and dist/ alike. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The git folder of `root`: `.git` itself, or where a worktree's `.git` file points. */
function gitFolder(root: string): string | undefined {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return undefined;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec(read(dotGit) ?? '');
  return pointer === null ? undefined : resolve(root, pointer[1] as string);
}

/** The commit HEAD names in the git folder of `root`, if it can be read. */
export function gitCommit(root: string): string | undefined {
  const git = gitFolder(root);
  if (git === undefined) return undefined;
  const head = read(join(git, 'HEAD'));
  if (head === undefined) return undefined;
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  // A worktree keeps its refs in the main repository's folder (`commondir`).
  const common = resolve(git, read(join(git, 'commondir')) ?? '.');
  for (const folder of [git, common]) {
    const loose = read(join(folder, ref));
    if (loose !== undefined && /^[0-9a-f]{40}$/.test(loose)) return loose;
    const packed = new RegExp(`^([0-9a-f]{40}) ${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(read(join(folder, 'packed-refs')) ?? '');
    if (packed !== null) return packed[1];
  }
  return undefined;
}

export function buildInfo(env: NodeJS.ProcessEnv = process.env, root: string = ROOT): BuildInfo {
  const pkg = JSON.parse(read(join(root, 'package.json')) ?? '{}') as { version?: string };
  const given = env['MW_BUILD_COMMIT'];
  return {
    version: pkg.version ?? 'unknown',
    node: process.version,
    commit: given !== undefined && given !== '' ? given : (gitCommit(root) ?? 'unknown'),
  };
}
