/**
 * The CLI's side of the operator route (operatorRoute.ts): when a node runs for the home
 * (node.json) and the home has an operator token, `command`, `replay`, `audit`, `registry export`
 * and `tree` are sent to that node and run there, on its open database, instead of starting
 * PostgreSQL in this process (3–12 s before, issue 33 item 5). Paths on the command line
 * (`--dir`, `--payload @FILE`, `--out FILE`) are made absolute first: the node runs on this
 * machine, in another folder. The node is trusted as the folder's certificate names it (its
 * fingerprint, whatever host name it is reached by). Anything that keeps the node from answering
 * — no node, no token, a certificate the home does not hold, an answer too large — runs the
 * command here as before; `MW_CLI_LOCAL=1` always does.
 *
 * This is the CLI's fast path: `main.ts` tries it before loading the dispatch, so a forwarded
 * command loads this module, the few it imports, and Node's own HTTPS client; nothing of the
 * domain, the store or the node (test/cliFastPath.e2e.test.ts lists what loads). Keep it so:
 * no `Home` (which loads the Organization's documents), no schemas, no `pg`.
 */

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { resolve } from 'node:path';
import { readOperatorToken } from '../home/operatorToken.js';
import { runningNode } from '../home/runningNode.js';
import { OPERATOR_PATH, OPERATOR_VERBS } from './operatorApi.js';

/** Flags whose value is a path of the operator's shell, and how to make it absolute. */
const PATHS: Record<string, (value: string) => string> = {
  dir: (value) => resolve(value),
  out: (value) => resolve(value),
  payload: (value) => (value.startsWith('@') ? `@${resolve(value.slice(1))}` : value),
};

/** `argv` with its paths absolute, and the home it names (`--dir`, default .missionweave). */
function absolute(argv: readonly string[]): { argv: string[]; dir: string } {
  const out: string[] = [];
  let dir = resolve('.missionweave');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const inline = /^--([a-z-]+)=(.*)$/s.exec(arg);
    const name = inline?.[1] ?? (arg.startsWith('--') ? arg.slice(2) : undefined);
    const fix = name === undefined ? undefined : PATHS[name];
    if (fix === undefined || name === undefined) {
      out.push(arg);
      continue;
    }
    const value = inline?.[2] ?? argv[++i];
    if (value === undefined) {
      out.push(arg);
      continue;
    }
    const fixed = fix(value);
    if (name === 'dir') dir = fixed;
    out.push(`--${name}`, fixed);
  }
  if (!out.includes('--dir')) out.push('--dir', dir);
  return { argv: out, dir };
}

interface Answer {
  readonly code?: number;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly tooLarge?: boolean;
}

function post(origin: string, certificate: X509Certificate, token: string, body: string): Promise<Answer | undefined> {
  const url = new URL(OPERATOR_PATH, origin);
  // The node listens on every interface when its host is 0.0.0.0 (or ::): reach it on loopback.
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return new Promise((done) => {
    const req = request(url, {
      method: 'POST',
      ca: certificate.toString(),
      // Pinned: the very certificate of the home, whatever name the node is reached by.
      checkServerIdentity: (_host, peer) => (peer.fingerprint256 === certificate.fingerprint256 ? undefined : new Error('not the home\'s certificate')),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return done(undefined);
        try {
          done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer);
        } catch {
          done(undefined);
        }
      });
      response.on('error', () => done(undefined));
    });
    req.on('error', () => done(undefined));
    req.end(body);
  });
}

/** The home's folder, as `Home` gives it (home.ts), without loading `Home`. */
function homeFolder(directory: string): { readonly directory: string; path(...parts: string[]): string } {
  return { directory, path: (...parts) => resolve(directory, ...parts) };
}

/** The home's certificate file, as its config.json names it; undefined when it has none. */
function certificateFile(home: ReturnType<typeof homeFolder>): string | undefined {
  try {
    const config = JSON.parse(readFileSync(home.path('config.json'), 'utf8')) as { tls?: { certFile?: unknown } };
    return typeof config.tls?.certFile === 'string' ? home.path(config.tls.certFile) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `verb argv` in the node serving its home: its exit code, or undefined to run it here. */
export async function forwardToNode(verb: string, argv: readonly string[]): Promise<number | undefined> {
  if (!OPERATOR_VERBS.has(verb) || process.env['MW_CLI_LOCAL'] === '1') return undefined;
  const line = absolute(argv);
  const home = homeFolder(line.dir);
  const node = runningNode(home);
  const token = node === undefined ? undefined : readOperatorToken(home);
  const file = token === undefined ? undefined : certificateFile(home);
  if (node === undefined || token === undefined || file === undefined) return undefined;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(readFileSync(file));
  } catch {
    return undefined;
  }
  const answer = await post(node.https, certificate, token, JSON.stringify({ argv: [verb, ...line.argv] }));
  if (answer === undefined || answer.tooLarge === true || typeof answer.code !== 'number') return undefined;
  process.stdout.write(answer.stdout ?? '');
  process.stderr.write(answer.stderr ?? '');
  return answer.code;
}
