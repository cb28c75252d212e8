/**
 * A Group's live Events over Server-Sent Events, read with fetch and a ReadableStream so the
 * bearer token can be sent (docs/human-api.md). After a cut it resumes from the last `id` it saw
 * (`Last-Event-ID`), so no Event is lost or doubled. `event: refused` with AUTH_REQUIRED (the
 * session ended, or another node does not know it) signs in again and resumes; any other
 * `event: refused` ends it for good (the Membership no longer reads the Group) and hands the
 * error document to `onRefused`.
 */

import type { ConsoleApi } from './api.js';
import { RECONNECT_DELAYS_MS } from './limits.js';
import type { JsonObject, Refusal } from './panel.js';

export interface StreamHandlers {
  readonly onEvent: (event: JsonObject) => void;
  readonly onRefused: (error: Refusal) => void;
  readonly onState?: (state: 'live' | 'reconnecting') => void;
}

interface SseMessage {
  id?: string;
  event?: string;
  data: string[];
}

export function followGroup(api: ConsoleApi, groupId: string, after: number, handlers: StreamHandlers): () => void {
  const abort = new AbortController();
  let lastId = after;
  let attempt = 0;

  /** Set when the stream ended with a refusal that signing in again answers. */
  let reauthenticate = false;
  const dispatch = (message: SseMessage): boolean => {
    if (message.data.length === 0) return true;
    const data = message.data.join('\n');
    if (message.event === 'refused') {
      const refusal = ((JSON.parse(data) as { error?: Refusal }).error ?? JSON.parse(data)) as Refusal;
      if (refusal.code === 'AUTH_REQUIRED') reauthenticate = true;
      else handlers.onRefused(refusal);
      return false;
    }
    const event = JSON.parse(data) as JsonObject;
    const sequence = Number(message.id ?? event['sequence']);
    if (Number.isFinite(sequence)) {
      if (sequence <= lastId) return true;
      lastId = sequence;
    }
    handlers.onEvent(event);
    return true;
  };

  const readOnce = async (): Promise<boolean> => {
    const token = await api.bearer();
    const response = await fetch(`/v1/groups/${encodeURIComponent(groupId)}/stream?after=${lastId}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'last-event-id': String(lastId) },
      signal: abort.signal,
    });
    if (!response.ok || response.body === null) {
      const body = (await response.json().catch(() => ({}))) as { error?: Refusal };
      if (body.error?.code === 'AUTH_REQUIRED') await api.signIn();
      else if (body.error !== undefined) {
        handlers.onRefused(body.error);
        return false;
      }
      return true;
    }
    attempt = 0;
    handlers.onState?.('live');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let message: SseMessage = { data: [] };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      buffer += value;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (!dispatch(message)) {
            if (!reauthenticate) return false;
            reauthenticate = false;
            await api.signIn();
            return true;
          }
          message = { data: [] };
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') message.data.push(text);
          else if (field === 'id') message.id = text;
          else if (field === 'event') message.event = text;
        }
      }
    }
  };

  void (async () => {
    while (!abort.signal.aborted) {
      let again = true;
      try {
        again = await readOnce();
      } catch {
        again = true;
      }
      if (!again || abort.signal.aborted) return;
      handlers.onState?.('reconnecting');
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt++, RECONNECT_DELAYS_MS.length - 1)] as number;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  })();
  return () => abort.abort();
}
