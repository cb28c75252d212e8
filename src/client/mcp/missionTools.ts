/**
 * The Mission tools an LLM Worker needs beside Parley (issue 14, part 3): its Groups
 * (`list_missions`, `GET /v1/me`), a Group's Events in order (`read_events`), the Group's
 * current state (`group_view`), and a Message in a Conversation (`post_message`, a signed
 * `message.post`). Reads go through the node's one read rule with the Agent's session; a
 * Message is context only and never authorizes work (§9).
 */

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { JsonObject } from '../documents.js';
import { MCP_EVENTS_DEFAULT_LIMIT, MCP_EVENTS_MAX_LIMIT } from './mcpLimits.js';
import { tool, ToolRefusal, type McpToolSpec, type ToolContext } from './toolSpec.js';

const groupId = z.string().min(1);
const groupPath = (group: string, rest: string) => `/v1/groups/${encodeURIComponent(group)}/${rest}`;

/** The Mission's main Conversation, from the Group's view (`group.mainConversationId`). */
async function mainConversation(context: ToolContext, group: string): Promise<string> {
  const view = await context.read(groupPath(group, 'view'));
  const conversation = (view['group'] as Record<string, unknown> | undefined)?.['mainConversationId'];
  if (typeof conversation !== 'string') throw new ToolRefusal('INVALID_COMMAND', 'no_main_conversation', `${group} names no main Conversation: give conversationId`);
  return conversation;
}

export function missionTools(): McpToolSpec[] {
  return [
    tool({
      name: 'list_missions',
      description: 'Your Groups: Mission, state, your role and Membership.',
      input: {},
      readOnly: true,
      run: (_args, context) => context.read('/v1/me'),
    }),
    tool({
      name: 'read_events',
      description: `A Group's Events after sequence \`after\`, in order (\`limit\` default ${MCP_EVENTS_DEFAULT_LIMIT}).`,
      input: {
        groupId,
        after: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(MCP_EVENTS_MAX_LIMIT).optional(),
      },
      readOnly: true,
      run: (args, context) => context.read(groupPath(args.groupId, `events?after=${args.after ?? 0}&limit=${args.limit ?? MCP_EVENTS_DEFAULT_LIMIT}`)),
    }),
    tool({
      name: 'group_view',
      description: "A Group's current state: Mission, Memberships, WorkItems, Artifacts.",
      input: { groupId },
      readOnly: true,
      run: (args, context) => context.read(groupPath(args.groupId, 'view')),
    }),
    tool({
      name: 'post_message',
      description: "Posts a Message in `conversationId`, else the Mission's main Conversation.",
      input: {
        groupId,
        // The message.post payload's own name (and the CLI's): one name everywhere, no alias.
        content: z.string().min(1).max(100_000),
        conversationId: z.string().min(1).optional(),
      },
      async run(args, context) {
        const conversationId = args.conversationId ?? (await mainConversation(context, args.groupId));
        const messageId = `urn:uuid:${randomUUID()}`;
        const event = await context.command('message.post', { messageId, conversationId, content: args.content }, args.groupId);
        return { messageId, conversationId, kind: event.kind, sequence: event.sequence ?? null, eventId: event.eventId } satisfies JsonObject;
      },
    }),
  ];
}
