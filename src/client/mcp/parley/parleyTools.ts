/**
 * Parley v1 as MCP tools (issue 14, part 3; docs/parley.md): `get_manifest`, one tool per
 * speech act (`parley_ask` … `parley_confirm`), one per claim act of the dialectic profile
 * (`parley_assert` … `parley_refute`) and the three reads (`parley_thread`, `parley_log`,
 * `parley_inbox`). The MCP server is on the Agent's side: it reads the profile from the node
 * (`GET /v1/parley/manifest`) — the Command kinds come from its `commands` — and every act is a
 * signed Command in the Mission's Group, judged by the same authorization path as a human's
 * Command over HTTPS. The node judges the envelope; the shapes here say which members each act
 * takes, and a call with another member or a wrong type is refused `invalid_body` before
 * anything is sent, as the node would refuse the envelope (one envelope rule on every door).
 */

import { z } from 'zod';
import type { JsonObject, ProtocolEvent } from '../../documents.js';
import { tool, type McpToolSpec, type ToolContext } from '../toolSpec.js';

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

// Each member once, without prose: what they share is said once, in the server's instructions
// (mcpServer.ts), so that every tool does not repeat it in the model's context. The node judges
// the envelope's values (an empty extension is its invalid_body); a shape here says what is sent.
const groupId = z.string().min(1);
const body = z.string().min(1);
const extension = z.string().optional();
const provenance = z.record(z.string(), z.string()).optional();
const reference = (prefix: string) => z.union([z.string().regex(new RegExp(`^${prefix}[1-9]\\d*$`)), z.number().int().positive()]);
const thread = reference('th_');
const parent = reference('msg_');
const to = z.strictObject({ identity: z.string(), extension: z.string().optional() }).optional();
const end = z.enum(['deferred', 'obsolete', 'rejected']);

const common = { groupId, body, extension, provenance };

interface ActTool {
  readonly act: string;
  readonly description: string;
  readonly input: z.ZodRawShape;
}

/** The nine acts (docs/parley.md "The nine speech acts"): which members each takes. */
const ACTS: readonly ActTool[] = [
  { act: 'ask', description: 'Opens a thread, or asks in `thread`; awaits `to`, or anyone.', input: { ...common, thread: thread.optional(), parent: parent.optional(), to } },
  { act: 'answer', description: 'Answers `parent`; marks an open thread answered.', input: { ...common, parent, thread: thread.optional() } },
  { act: 'clarify', description: "Asks `parent`'s author to say more.", input: { ...common, parent, thread: thread.optional() } },
  { act: 'object', description: 'Contests `parent`; the state stays.', input: { ...common, parent, thread: thread.optional() } },
  { act: 'decide', description: 'Marks the thread decided.', input: { ...common, thread, parent: parent.optional() } },
  { act: 'close', description: 'Marks the thread closed; confirmed, it takes no message until reopened.', input: { ...common, thread, parent: parent.optional() } },
  { act: 'shelve', description: 'Ends the thread aside as `end`.', input: { ...common, thread, end, parent: parent.optional() } },
  { act: 'reopen', description: 'Reopens a closed thread; a side end only by a lock holder or the human.', input: { ...common, thread, to, parent: parent.optional() } },
  { act: 'confirm', description: "Confirms the thread's proposed state (a lock holder or the human).", input: { ...common, thread, parent: parent.optional() } },
];

// A claim has one name, `cl_<n>`, never a bare number (unlike a thread or a message).
const claim = z.string().regex(/^cl_[1-9]\d*$/);
const proofs = z.array(z.strictObject({ kind: z.enum(['url', 'hash', 'artifact', 'commit', 'log', 'reproducer', 'note', 'other']), ref: z.string().min(1), note: z.string().optional() })).optional();

/** The dialectic profile's four acts (docs/parley.md, seed « Profil : Dialectique »). */
const CLAIMS: readonly ActTool[] = [
  {
    act: 'assert',
    description: 'Makes a claim (unverified); `supersedes` replaces claims, `valid_until` (UTC) ends its support.',
    input: { ...common, proofs, supersedes: z.array(claim).optional(), valid_until: z.string().optional() },
  },
  { act: 'attest', description: "Supports another's claim (→ supported).", input: { ...common, claim, proofs } },
  { act: 'verify', description: 'Seals a supported claim verified (reviewer, human).', input: { ...common, claim, proofs } },
  { act: 'refute', description: 'Refutes a claim with at least one proof; beats support, even verified.', input: { ...common, claim, proofs } },
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
    description: spec.description,
    input: spec.input,
    malformedReason: MALFORMED,
    async run(args: Record<string, unknown>, context) {
      const head: JsonObject = which === 'post' ? { kind: spec.act } : { act: spec.act };
      const event = await context.command(await commandKind(context, which), envelopeOf(args, context, head, members), args['groupId'] as string);
      return accepted(event);
    },
  });
}

/** A malformed call to a Parley tool is the seed's `invalid_body`, as the node answers it over HTTPS. */
const MALFORMED = 'invalid_body';

const groupPath = (group: string, rest: string) => `/v1/groups/${encodeURIComponent(group)}/parley/${rest}`;
const threadKey = (value: string | number) => encodeURIComponent(String(value));

export function parleyTools(): McpToolSpec[] {
  return [
    tool({
      name: 'get_manifest',
      description: 'Call first: your Agent ID and extension; Parley\'s acts, states, limits, labels, refusals and dialectic profile; every tool.',
      input: {},
      readOnly: true,
      malformedReason: MALFORMED,
      async run(_args, context) {
        return { agentId: context.agentId, extension: context.extension, parley: await manifestOf(context), tools: (context.tools ?? []) as unknown as JsonObject[] };
      },
    }),
    ...ACTS.map((spec) => actTool(spec, 'post')),
    ...CLAIMS.map((spec) => actTool(spec, 'claim')),
    tool({
      name: 'parley_thread',
      description: 'A thread: its state and turn, and its messages as a tree in creation order.',
      input: { groupId, thread },
      readOnly: true,
      malformedReason: MALFORMED,
      run: (args, context) => context.read(groupPath(args.groupId, `threads/${threadKey(args.thread)}`)),
    }),
    tool({
      name: 'parley_log',
      description: "A thread's state changes: from, to, origin, label, time, confirmation.",
      input: { groupId, thread },
      readOnly: true,
      malformedReason: MALFORMED,
      run: (args, context) => context.read(groupPath(args.groupId, `threads/${threadKey(args.thread)}/log`)),
    }),
    tool({
      name: 'parley_inbox',
      description: "Threads whose turn is yours (your extension's own questions masked); read on with the returned `cursor`, or from `since` (UTC).",
      input: { groupId, since: z.string().min(1).optional(), cursor: z.string().min(1).optional(), limit: z.number().int().min(1).max(50).optional(), extension },
      readOnly: true,
      malformedReason: MALFORMED,
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
