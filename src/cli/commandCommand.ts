/**
 * `missionweave command <kind> --as HANDLE --dir DIR [--group G] [--payload JSON|@FILE]
 * [--expected-revision N] [--node HTTPS_ORIGIN]`: builds a Command for a Principal of the
 * directory, fills in what a careful client would (its current Membership, Session and
 * Coordinator Epochs; fresh IDs for a new Mission's Group or a new Message; the Mission's main
 * Conversation), signs it with the Principal's key and submits it through the Command pipeline:
 * in this process, or with `--node` to a running node's `POST /v1/commands` (trusting the
 * folder's certificate), which then counts it in its own /metrics. Prints the resulting Events
 * as JSON lines, or the §19 error on stderr (exit 1).
 */

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { signCommand, timestampOf, type CommandRequest } from '../app/issueDocuments.js';
import { parseStrictJsonText, type JsonObject } from '../protocol/strictJson.js';
import type { Pool } from '../store/pool.js';
import { openAuthority } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home, type PrincipalRecord } from '../home/home.js';
import { DataError, NoInputError } from '../home/usageError.js';

const CREATIONS = new Set(['mission.create', 'mission.create_follow_up']);

/**
 * `--payload JSON|@FILE` as one strict JSON object, parsed as the wire parses (no duplicate
 * member names, no trailing data): a mistake in it is a data error, a missing file no input.
 */
function readPayload(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  const file = text.startsWith('@') ? text.slice(1) : undefined;
  if (file !== undefined && !existsSync(file)) throw new NoInputError(`no file ${file} (--payload @${file}); give the path of a JSON file, or the JSON itself`);
  const json = file === undefined ? text : readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = parseStrictJsonText(json);
  } catch (error) {
    throw new DataError(`--payload${file === undefined ? '' : ` @${file}`} is not one strict JSON object: ${(error as Error).message}; see an example with: missionweave kinds KIND`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DataError('--payload must be a JSON object, e.g. --payload \'{"title":"…"}\'');
  return value as JsonObject;
}

async function groupExists(pool: Pool, groupId: string): Promise<boolean> {
  const found = await pool.query('select 1 from aggregates where group_id = $1 and aggregate_type = $2 limit 1', [groupId, 'group']);
  return found.rows.length > 0;
}

async function groupFacts(pool: Pool, groupId: string, principal: PrincipalRecord) {
  const membership = await pool.query<{ epoch: number }>(
    `select (document->>'membershipEpoch')::int as epoch from aggregates
     where group_id = $1 and aggregate_type = 'membership' and document->'member'->>'id' = $2 and document->'member'->>'type' = $3`,
    [groupId, principal.id, principal.type],
  );
  const mission = await pool.query<{ conversation: string; coordinator: string; epoch: number }>(
    `select g.document->>'mainConversationId' as conversation, m.document->'mission'->'coordinator'->>'agentId' as coordinator,
            (m.document->'mission'->'coordinator'->>'coordinatorEpoch')::int as epoch
     from aggregates g join aggregates m on m.tree_id = g.tree_id and m.group_id = g.group_id and m.aggregate_type = 'mission'
     where g.group_id = $1 and g.aggregate_type = 'group'`,
    [groupId],
  );
  const sessions = await pool.query<{ session_epoch: number }>('select session_epoch from agent_sessions where agent_id = $1', [principal.id]);
  return { membershipEpoch: membership.rows[0]?.epoch, mission: mission.rows[0], sessionEpoch: sessions.rows[0]?.session_epoch };
}

/** The answer of a node's `POST /v1/commands` to one signed Command. */
function postCommand(origin: string, ca: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL('/v1/commands', origin), { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Submits through the running node at `origin`; the Event texts, or the §19 error. */
async function submitToNode(home: Home, origin: string, command: JsonObject): Promise<{ ok: true; texts: string[] } | { ok: false; code: string; message: string }> {
  const answer = await postCommand(origin, readFileSync(home.path(home.config().tls.certFile), 'utf8'), JSON.stringify(command));
  const body = JSON.parse(answer.text) as { events?: JsonObject[]; error?: { code: string; message: string } };
  if (body.events !== undefined) return { ok: true, texts: body.events.map((event) => JSON.stringify(event)) };
  return { ok: false, code: body.error?.code ?? `HTTP ${answer.status}`, message: body.error?.message ?? answer.text };
}

export async function commandCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', as: 'value', group: 'value', payload: 'value', 'expected-revision': 'value', node: 'value' });
  const [kind] = args.positionals;
  const handle = stringOption(args, 'as');
  if (kind === undefined || handle === undefined || args.positionals.length !== 1) {
    throw new UsageError('usage: missionweave command <kind> --as HANDLE --dir DIR [--group G] [--payload JSON|@FILE] [--node HTTPS_ORIGIN]');
  }
  const node = stringOption(args, 'node');
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const principal = home.principal(handle);
  if (principal.privateKeyFile === undefined) throw new UsageError(`${principal.handle}'s private key is held elsewhere (enrolled with --public-key): sign there`);
  const privateKeyFile = principal.privateKeyFile;
  const payload = readPayload(stringOption(args, 'payload'));
  let groupId = stringOption(args, 'group');
  if (CREATIONS.has(kind)) {
    const id = randomUUID();
    payload['groupId'] ??= groupId ?? `urn:missionweave:group:${id}`;
    payload['missionId'] ??= `urn:missionweave:mission:${id}`;
    payload['mainConversationId'] ??= `urn:missionweave:conversation:${id}`;
    groupId = String(payload['groupId']);
  }
  if (groupId === undefined) throw new UsageError(`${kind} needs --group`);
  const running = await openAuthority(home);
  try {
    if (!CREATIONS.has(kind) && running.authority.kinds.scopeOf(kind) === 'group' && !(await groupExists(running.pool, groupId))) {
      throw new NoInputError(`no Group ${groupId} in ${home.directory}; a Mission's Group is made by mission.create (its groupId is in the Events it prints)`);
    }
    const facts = await groupFacts(running.pool, groupId, principal);
    if (kind === 'message.post') {
      payload['messageId'] ??= `urn:uuid:${randomUUID()}`;
      if (facts.mission !== undefined) payload['conversationId'] ??= facts.mission.conversation;
    }
    const expected = stringOption(args, 'expected-revision');
    const request: CommandRequest = {
      actor: { type: principal.type, id: principal.id },
      kind,
      payload,
      issuedAt: timestampOf(Date.now()),
      groupId,
      ...(CREATIONS.has(kind) || facts.membershipEpoch === undefined ? {} : { membershipEpoch: facts.membershipEpoch }),
      ...(principal.type === 'agent' && facts.sessionEpoch !== undefined ? { sessionEpoch: facts.sessionEpoch } : {}),
      ...(principal.type === 'agent' && facts.mission?.coordinator === principal.id ? { coordinatorEpoch: facts.mission.epoch } : {}),
      ...(expected === undefined ? {} : { expectedRevision: Number(expected) }),
    };
    const key = { keyId: principal.keyId, privateKey: home.privateKey(privateKeyFile) };
    const command = signCommand(request, key);
    if (node !== undefined) {
      const answer = await submitToNode(home, node, command);
      if (!answer.ok) {
        process.stderr.write(`${answer.code}: ${answer.message}\n`);
        return 1;
      }
      process.stdout.write(answer.texts.map((text) => `${text}\n`).join(''));
      return 0;
    }
    const outcome = await running.authority.submit(command);
    if (!outcome.ok) {
      process.stderr.write(`${outcome.error.code}: ${outcome.error.message}\n`);
      return 1;
    }
    process.stdout.write(outcome.events.map((e) => `${e.text}\n`).join(''));
    return 0;
  } finally {
    await running.close();
  }
}
