// `npm start` builds only when the sources changed since the last build (issue 33, item 5: it
// rebuilt every time, 38 s). The stamp, dist/.build-stamp, records the newest modification time
// among the build's inputs as they were when the last successful `build:package` began; the tree
// is stale when there is no stamp, no dist/cli/main.js, or an input — a file, or a folder, whose
// time moves when a file in it is added or removed — is newer than that. Run directly, it builds
// when stale and writes the stamp, and says in one line on stderr which it did.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `npm run build:package` reads: the sources, the console, and their configuration. */
export const INPUTS = ['src', 'console', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'vite.config.ts'];
export const STAMP = join('dist', '.build-stamp');

/** The newest modification time (ms) under `path`, folders included; node_modules skipped. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** The newest modification time among the build's inputs under `root`. */
export function newestInput(root) {
  return Math.max(...INPUTS.map((input) => join(root, input)).filter((path) => existsSync(path)).map(newest));
}

/** Why the tree under `root` needs a build, or undefined when dist/ is up to date. */
export function staleReason(root) {
  const stampFile = join(root, STAMP);
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) return 'no build yet';
  if (!existsSync(stampFile)) return 'no build stamp';
  const built = Number(JSON.parse(readFileSync(stampFile, 'utf8')).newestInput);
  return newestInput(root) > built ? 'sources changed since the last build' : undefined;
}

/** Records that the build begun when the inputs' newest time was `inputs` succeeded. */
export function writeStamp(root, inputs) {
  writeFileSync(join(root, STAMP), `${JSON.stringify({ newestInput: inputs, builtAt: new Date().toISOString() })}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const reason = staleReason(root);
  if (reason === undefined) {
    process.stderr.write('build up to date (dist/.build-stamp); not rebuilding\n');
  } else {
    process.stderr.write(`building: ${reason}\n`);
    const inputs = newestInput(root);
    const build = spawnSync('npm', ['run', 'build:package', '--silent'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    writeStamp(root, inputs);
  }
}
