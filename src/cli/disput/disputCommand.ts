/**
 * `missionweave disput <next|status|check|play|decide> --group G --as HANDLE [--dir DIR] [--repo PATH]
 * [--url https://HOST:PORT]`: disput v0 (seed `disput-v0.fr.txt`, docs/disput.md) in a real git
 * repository, speaking for a Principal of the operator folder DIR to the running node its
 * configuration names (or `--url`). The Group is authoritative: `next` and `status` read its
 * Events (`next` also records the turn's start, for §8.3), `check` runs the §8 check on the turn
 * in the folder, `play` checks then records the newly committed turn file there, `decide` writes,
 * commits and records the human decider's turn. Each prints a line for people, then one JSON line;
 * a refusal or a failed check exits 1.
 */

import type { JsonObject } from '../../protocol/strictJson.js';
import { parseArgs, stringOption, UsageError } from '../args.js';
import { ensureLocalFilesIgnored, recordTurnStart } from '../../client/disput/localFiles.js';
import { checkRepo } from './checkRepo.js';
import { readDialogue, statusOf, whoPlays } from './dialogue.js';
import { connect, type NodeLink } from './nodeLink.js';
import { decide, folderDifferences, freshTurnFiles, playTurn, type Decision, type PlayResult } from './playTurn.js';
import { refusedBy } from './refusedBy.js';
import { BACKLOG_PATH, CONFIG_PATH, GitRepo, ROOT_CONFIG_PATH, type RepoCheck } from './repoChecks.js';
import { disputRepoCheck } from './turnCheck.js';
import { Home } from '../../home/home.js';

const USAGE = `usage: missionweave disput <next|status|check|play|decide "TEXT"> --group G --as HANDLE [--dir DIR] [--repo PATH] [--url https://HOST:PORT]
  decide: [--answer "[I-0002-2] CLOS : …" ...] [--status CONTINUE|DONE]`;

const SUBCOMMANDS = new Set(['next', 'status', 'check', 'play', 'decide']);

function print(line: string, json: JsonObject): void {
  process.stdout.write(`${line}\n${JSON.stringify(json)}\n`);
}

function printPlayed(result: PlayResult): number {
  const r = result.report;
  if (result.ok) {
    const events = (r['events'] as JsonObject[]).map((e) => `${String(e['kind'])} #${String(e['sequence'])}`).join(', ');
    print(`recorded ${String(r['fileName'])} at ${String(r['commit']).slice(0, 7)}: ${events}`, r);
    return 0;
  }
  const problems = Array.isArray(r['problems']) ? `\n  ${(r['problems'] as string[]).join('\n  ')}` : '';
  print(`refused: ${String(r['code'] ?? '')}${r['code'] === undefined ? '' : ' '}${String(r['reason'])} — ${String(r['message'])}${problems}`, r);
  return 1;
}

/** `run` with the command's seam: `check` is the §8 check `play` and `decide` apply. */
export async function runDisput(argv: readonly string[], check: RepoCheck = disputRepoCheck): Promise<number> {
  const args = parseArgs(argv, { group: 'value', as: 'value', dir: 'value', repo: 'value', url: 'value', answer: 'list', status: 'value' });
  const [sub, ...rest] = args.positionals;
  const groupId = stringOption(args, 'group');
  const handle = stringOption(args, 'as');
  if (sub === undefined || !SUBCOMMANDS.has(sub) || groupId === undefined || handle === undefined) throw new UsageError(USAGE);
  if (sub === 'decide' ? rest.length !== 1 : rest.length !== 0) throw new UsageError(USAGE);
  const status = stringOption(args, 'status') ?? 'CONTINUE';
  if (status !== 'CONTINUE' && status !== 'DONE') throw new UsageError('--status is CONTINUE or DONE');
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const repo = new GitRepo(stringOption(args, 'repo') ?? process.cwd());
  let link: NodeLink;
  try {
    link = await connect(home, handle, stringOption(args, 'url'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    process.stderr.write(`missionweave disput: cannot reach the node as ${handle}: ${(error as Error).message}\n`);
    return 1;
  }
  const decision: Decision = { text: rest[0] ?? '', answers: args.lists.get('answer') ?? [], status };
  try {
    return await run(sub, { link, groupId, repo, check, decision });
  } catch (error) {
    // A refusal from the node, the session, git or the run lock is an answer: one line, its reason, exit 1.
    const refused = refusedBy(error);
    if (refused === undefined) throw error;
    print(`refused: ${refused.code === undefined ? '' : `${refused.code} `}${refused.reason} — ${refused.message}`, { ok: false, ...refused });
    return 1;
  } finally {
    await link.close();
  }
}

interface Context {
  readonly link: NodeLink;
  readonly groupId: string;
  readonly repo: GitRepo;
  readonly check: RepoCheck;
  readonly decision: Decision;
}

async function run(sub: string, { link, groupId, repo, check, decision }: Context): Promise<number> {
  if (sub === 'play') return printPlayed(await playTurn(link, groupId, repo, check));
  if (sub === 'check') {
    const checked = await checkRepo(link, groupId, repo, check);
    process.stdout.write(`${checked.line}\n${JSON.stringify(checked.report)}\n`);
    return checked.ok ? 0 : 1;
  }
  if (sub === 'decide') return printPlayed(await decide(link, groupId, repo, check, decision));
  const { state, texts } = readDialogue(await link.events(groupId));
  if (sub === 'next') {
    const head = repo.head();
    repo.readFiles(head, [CONFIG_PATH, ROOT_CONFIG_PATH, BACKLOG_PATH]);
    const folder = { config: repo.configAt(head)?.text, backlog: repo.fileAt(head, BACKLOG_PATH) };
    const { line, ...next } = whoPlays(state, Object.fromEntries(Object.entries(folder).filter(([, v]) => v !== undefined)));
    // §8.3: the turn starts here, from the last recorded turn's commit (before turn 1: a HEAD with
    // no turn file yet); HEAD past it is a turn under way, whose start is not overwritten.
    const last = state.turns.at(-1)?.commit;
    const starts = next.participant !== undefined && (last === undefined ? freshTurnFiles(repo, head, state, texts).length === 0 : last === head);
    if (starts) {
      await ensureLocalFilesIgnored(repo.root);
      await recordTurnStart(repo.root);
    }
    print(line, { ...next, turn: (state.turns.at(-1)?.number ?? 0) + 1, turnStart: starts ? head : null } as unknown as JsonObject);
    return 0;
  }
  // §3.2: the folder must agree with the Group; a differing turn file is reported here too.
  const differences = await folderDifferences(repo, repo.head(), texts);
  const report: JsonObject = { ...statusOf(state), differences };
  const open = (report['items'] as unknown as { id: string; status: string; resolved: boolean }[]).filter((i) => !i.resolved);
  const pending = open.length === 0 ? 'no pending item' : open.map((i) => `${i.id} ${i.status}`).join(', ');
  const disagree = differences.length === 0 ? '' : `; the folder disagrees with the Group: ${differences.join('; ')}`;
  print(`${state.turns.length} turns; ${pending}; backlog: ${state.backlog?.next ?? 'nothing open'}${disagree}`, report);
  return 0;
}

export const disputCommand = (argv: readonly string[]): Promise<number> => runDisput(argv);
