/**
 * The recent Messages of a Group, for the human to choose one to redact. The view carries no
 * Message content (docs/human-api.md), so they come from the Group's Event history: the last
 * page of `GET /v1/groups/{g}/events`, whose `message.posted` Events are the Messages and whose
 * `message.redacted` Events say which of them are already redacted (a redaction is final, §7.4).
 */
import type { ConsoleContext, JsonObject } from '../panel.js';
import { EXCERPT_LENGTH, RECENT_EVENTS } from './panelLimits.js';
import { list, obj, pathSegment, str } from './viewData.js';

export interface RecentMessage {
  readonly messageId: string;
  readonly conversationId: string | undefined;
  readonly author: JsonObject | undefined;
  readonly committedAt: string | undefined;
  readonly excerpt: string;
}

/** The text parts of a Message, joined and shortened; other parts are named, not shown. */
function excerptOf(message: JsonObject): string {
  const parts = list(message, 'content').map((part) => (str(part, 'type') === 'text' ? (str(part, 'text') ?? '') : `[${str(part, 'type') ?? 'part'}]`));
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

/** Messages of the events page, newest first, without those already redacted. */
export function messagesOf(events: readonly JsonObject[]): RecentMessage[] {
  const redacted = new Set<string>();
  for (const event of events) {
    if (str(event, 'kind') !== 'message.redacted') continue;
    const target = str(obj(obj(event, 'payload'), 'amendment'), 'targetMessageId');
    if (target !== undefined) redacted.add(target);
  }
  const messages: RecentMessage[] = [];
  for (const event of events) {
    if (str(event, 'kind') !== 'message.posted') continue;
    const message = obj(obj(event, 'payload'), 'message');
    const messageId = str(message, 'messageId');
    if (message === undefined || messageId === undefined || redacted.has(messageId)) continue;
    messages.push({
      messageId,
      conversationId: str(message, 'conversationId'),
      author: obj(message, 'author'),
      committedAt: str(message, 'committedAt'),
      excerpt: excerptOf(message),
    });
  }
  return messages.reverse();
}

/** The last page of the Group's Events up to `lastSequence`, as Messages; a refusal rejects. */
export async function loadRecentMessages(context: ConsoleContext, lastSequence: number): Promise<RecentMessage[]> {
  const after = Math.max(0, lastSequence - RECENT_EVENTS);
  const page = await context.get(`/v1/groups/${pathSegment(context.groupId)}/events?after=${after}&limit=${RECENT_EVENTS}`);
  return messagesOf(list(page, 'events'));
}
