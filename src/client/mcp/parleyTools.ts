/**
 * Parley v1 as MCP tools (issue 14, part 3; docs/parley.md): `get_manifest`, one tool per
 * speech act (`parley_ask` … `parley_confirm`), one per claim act of the dialectic profile
 * (`parley_assert` … `parley_refute`) and the three reads (`parley_thread`, `parley_log`,
 * `parley_inbox`). The MCP server is on the Agent's side: it reads the profile from the node
 * (`GET /v1/parley/manifest`) — the Command kinds come from its `commands` — and every act is a
 * signed Command in the Mission's Group, judged by the same authorization path as a human's
 * Command over HTTPS. The node validates the envelope (`invalid_body`); the shapes here only
 * tell a model which members each act takes.
 */

import { z } from 'zod';
import type { JsonObject, ProtocolEvent } from '../documents.js';
import { tool, type McpToolSpec, type ToolContext } from './toolSpec.js';

export const PARLEY_MANIFEST_PATH = '/v1/parley/manifest';

/** The manifest once per Agent: it is the node's profile, the same for every Group. */
const manifests = new WeakMap<object, Promise<JsonObject>>();

function manifestOf(context: ToolContext): Promise<JsonObject> {
  let pending = manifests.get(context.agent);
  if (pending === undefined) {
    pending = context.read(PARLEY_MANIFEST_PATH);
    // A failed read is not remembered: the next call asks again.
    pending.catch(() => manifests.delete(context.agent));
    manifests.set(context.agent, pending);
  }
  return pending;
}

async function commandKind(context: ToolContext, which: 'post' | 'claim'): Promise<string> {
  const commands = (await manifestOf(context))['commands'] as Record<string, unknown> | undefined;
  const kind = commands?.[which];
  if (typeof kind !== 'string') throw new Error(`the node's Parley manifest names no ${which} Command kind`);
  return kind;
}

/** What a model needs back from an act: where it landed, and what the Event says happened. */
function accepted(event: ProtocolEvent): JsonObject {
  return { kind: event.kind, sequence: event.sequence ?? null, eventId: event.eventId, payload: event.payload };
}

const groupId = z.string().min(1).describe("the Mission's Group (list_missions names yours)");
const body = z.string().min(1).describe('the message, at most 500 characters (the manifest\'s limits.bodyMaxChars)');
const extension = z.string().min(1).optional().describe("your from.extension label (a sub-agent's name); this server's --extension when absent");
const provenance = z.record(z.string(), z.string()).optional().describe('which model and client spoke: a few short strings, never a payload');
const reference = (prefix: string, what: string) => z.union([z.string().regex(new RegExp(`^${prefix}[1-9][0-9]*$`)), z.number().int().positive()]).describe(`${what}: "${prefix}<n>" or the plain number`);
const thread = reference('th_', 'the thread');
const parent = reference('msg_', 'the message replied to');
const to = z.object({ identity: z.string().min(1), extension: z.string().min(1).optional() }).optional().describe('who must answer (a Principal ID, optionally one extension of it); anyone when absent');
const end = z.enum(['deferred', 'obsolete', 'rejected']).describe('which side end');

const common = { groupId, body, extension, provenance };

interface ActTool {
  readonly act: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodRawShape;
}

/** The nine acts (docs/parley.md "The nine speech acts"): which members each takes. */
const ACTS: readonly ActTool[] = [
  { act: 'ask', title: 'Parley: ask', description: 'Opens a thread (no thread) or asks again inside one. Awaits `to`, or anyone.', input: { ...common, thread: thread.optional(), parent: parent.optional(), to } },
  { act: 'answer', title: 'Parley: answer', description: "Answers a message (parent); marks open → answered (a model's mark is a proposal). Refused self_reply on your own message.", input: { ...common, parent, thread: thread.optional() } },
  { act: 'clarify', title: 'Parley: clarify', description: 'Asks the author of a message (parent) to say more; the state does not move.', input: { ...common, parent, thread: thread.optional() } },
  { act: 'object', title: 'Parley: object', description: 'Contests a message (parent) without moving the state backwards; awaits its author.', input: { ...common, parent, thread: thread.optional() } },
  { act: 'decide', title: 'Parley: decide', description: "Marks the thread decided (creator, lock holder or human; a model's decision is a proposal awaiting confirmation).", input: { ...common, thread, parent: parent.optional() } },
  { act: 'close', title: 'Parley: close', description: 'Marks the thread closed; confirmed, it accepts no message from anyone until reopened.', input: { ...common, thread, parent: parent.optional() } },
  { act: 'shelve', title: 'Parley: shelve', description: 'Ends the thread aside: deferred, obsolete or rejected (end).', input: { ...common, thread, end, parent: parent.optional() } },
  { act: 'reopen', title: 'Parley: reopen', description: 'Reopens a closed thread (creator, lock holder, human) or a side end (lock holder, human).', input: { ...common, thread, to, parent: parent.optional() } },
  { act: 'confirm', title: 'Parley: confirm', description: "Confirms the thread's proposed state (lock holder or human only).", input: { ...common, thread, parent: parent.optional() } },
];

// A claim has one name, `cl_<n>`, never a bare number (unlike a thread or a message).
const claim = z.string().regex(/^cl_[1-9][0-9]*$/).describe('the claim: "cl_<n>"');
const proofs = z
  .array(z.object({ kind: z.enum(['url', 'hash', 'artifact', 'commit', 'log', 'reproducer', 'note', 'other']), ref: z.string().min(1), note: z.string().optional() }))
  .optional()
  .describe('pointers to evidence {kind, ref, note?}, never an opinion');

/** The dialectic profile's four acts (docs/parley.md, seed « Profil : Dialectique »). */
const CLAIMS: readonly ActTool[] = [
  {
    act: 'assert',
    title: 'Parley: assert a claim',
    description: 'Makes a new claim (unverified). `supersedes` lists the claims it replaces; `valid_until` a UTC instant after which it takes no more support.',
    input: { ...common, proofs, supersedes: z.array(claim).optional().describe('claims this one replaces'), valid_until: z.string().optional().describe('a UTC instant, e.g. 2026-12-31T00:00:00Z') },
  },
  { act: 'attest', title: 'Parley: attest a claim', description: 'Supports another participant\'s claim (unverified → supported), with proofs where you have them.', input: { ...common, claim, proofs } },
  { act: 'verify', title: 'Parley: verify a claim', description: 'Seals a supported claim as verified (a verifier only: a reviewer or the human).', input: { ...common, claim, proofs } },
  { act: 'refute', title: 'Parley: refute a claim', description: 'Refutes a claim with at least one proof; a proven refutation beats support, even a verified claim.', input: { ...common, claim, proofs } },
];

function envelopeOf(args: Record<string, unknown>, context: ToolContext, head: JsonObject, members: readonly string[]): JsonObject {
  const envelope: JsonObject = { parley: '1', ...head, body: args['body'] as string, from: { extension: (args['extension'] as string | undefined) ?? context.extension } };
  for (const member of ['provenance', ...members]) if (args[member] !== undefined) envelope[member] = args[member] as JsonObject[string];
  return envelope;
}

function actTool(spec: ActTool, which: 'post' | 'claim'): McpToolSpec {
  const members = Object.keys(spec.input).filter((m) => !(m in common));
  return tool({
    name: `parley_${spec.act}`,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    async run(args: Record<string, unknown>, context) {
      const head: JsonObject = which === 'post' ? { kind: spec.act } : { act: spec.act };
      const event = await context.command(await commandKind(context, which), envelopeOf(args, context, head, members), args['groupId'] as string);
      return accepted(event);
    },
  });
}

const groupPath = (group: string, rest: string) => `/v1/groups/${encodeURIComponent(group)}/parley/${rest}`;
const threadKey = (value: string | number) => encodeURIComponent(String(value));

export function parleyTools(): McpToolSpec[] {
  return [
    tool({
      name: 'get_manifest',
      title: 'Parley manifest',
      description: 'Everything needed to take part without documentation: your Agent ID and extension, Parley\'s version, acts, states, limits, refusals and dialectic profile, and every tool this server offers.',
      input: {},
      readOnly: true,
      async run(_args, context) {
        return { agentId: context.agentId, extension: context.extension, parley: await manifestOf(context), tools: (context.tools ?? []) as unknown as JsonObject[] };
      },
    }),
    ...ACTS.map((spec) => actTool(spec, 'post')),
    ...CLAIMS.map((spec) => actTool(spec, 'claim')),
    tool({
      name: 'parley_thread',
      title: 'Parley: read a thread',
      description: 'A thread as a tree of messages in creation order, with its state, origin and turn.',
      input: { groupId, thread },
      readOnly: true,
      run: (args, context) => context.read(groupPath(args.groupId, `threads/${threadKey(args.thread)}`)),
    }),
    tool({
      name: 'parley_log',
      title: 'Parley: state-change log',
      description: "A thread's state changes: from, to, origin (user or llm), extension, time and confirmation.",
      input: { groupId, thread },
      readOnly: true,
      run: (args, context) => context.read(groupPath(args.groupId, `threads/${threadKey(args.thread)}/log`)),
    }),
    tool({
      name: 'parley_inbox',
      title: 'Parley: your inbox',
      description: "Threads whose turn is yours (your extension's own questions masked). Read on with the returned cursor, or from `since` (a UTC instant).",
      input: { groupId, since: z.string().min(1).optional(), cursor: z.string().min(1).optional(), limit: z.number().int().min(1).max(50).optional(), extension },
      readOnly: true,
      run(args, context) {
        const query = new URLSearchParams({ extension: args.extension ?? context.extension });
        if (args.since !== undefined) query.set('since', args.since);
        if (args.cursor !== undefined) query.set('cursor', args.cursor);
        if (args.limit !== undefined) query.set('limit', String(args.limit));
        return context.read(groupPath(args.groupId, `inbox?${query.toString()}`));
      },
    }),
  ];
}
