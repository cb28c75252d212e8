/**
 * `GET /v1/groups/{g}/stream` (docs/human-api.md "Live updates"): a Group's Events as
 * Server-Sent Events — one-way like the reads it replaces, readable by any HTTP client, and
 * carrying exactly the stored signed Events. Each is `id: <sequence>` / `event: event` /
 * `data: <signed Event JSON>`; a comment line every `streamHeartbeatMs`; `event: refused` with
 * an error document, then the end, once the read rule stops letting the reader read the Group
 * (or its session ends). `Last-Event-ID` or `after` resumes after a cut.
 *
 * The table is the truth: a wake-up (this node's commit, another node's NOTIFY, through the
 * DeliveryHub) or a heartbeat only tells the stream to re-check the reader and read the Group's
 * Events after its position, a page at a time, waiting for the socket to drain between writes —
 * so a reader that does not read holds one page, never the Group's history.
 */

import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorDocument, wireError, type WireError } from '../app/wireError.js';
import { principalKey } from '../protocol/principal.js';
import type { Reader } from './readerAuth.js';
import type { TransportContext } from './transportContext.js';

/** The SSE frame of one stored Event; JSON text has no raw line breaks, but a split keeps any. */
function eventFrame(sequence: number, document: string): string {
  const data = document.split('\n').map((line) => `data: ${line}`).join('\n');
  return `id: ${sequence}\nevent: event\n${data}\n\n`;
}

class EventStream {
  private position: number;
  private pumping = false;
  private again = false;
  private ended = false;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly context: TransportContext,
    private readonly response: ServerResponse,
    private readonly reader: Reader,
    private readonly groupId: string,
    after: number,
  ) {
    this.position = after;
  }

  start(release: () => void): void {
    this.cleanups.push(release);
    this.cleanups.push(this.context.hub.onAdvance(this.groupId, () => this.wake()));
    const heartbeat = setInterval(() => {
      if (this.write(': hb\n\n')) this.wake();
    }, this.context.limits.streamHeartbeatMs);
    this.cleanups.push(() => clearInterval(heartbeat));
    this.response.once('close', () => this.stop());
    this.wake();
  }

  private stop(): void {
    if (this.ended) return;
    this.ended = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private write(text: string): boolean {
    if (this.ended || this.response.destroyed) return false;
    this.response.write(text);
    return true;
  }

  private wake(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump()
      .catch((error: unknown) => this.context.logger.warn({ err: error, groupId: this.groupId }, 'event stream read failed; the next heartbeat retries'))
      .finally(() => {
        this.pumping = false;
        if (this.again && !this.ended) {
          this.again = false;
          this.wake();
        }
      });
  }

  private refuse(error: WireError): void {
    const now = new Date(this.context.clock.nowMillis()).toISOString();
    this.write(`event: refused\ndata: ${JSON.stringify({ error: errorDocument(error, now) })}\n\n`);
    this.response.end();
    this.stop();
  }

  private async pump(): Promise<void> {
    if (this.ended) return;
    if (!this.reader.live()) return this.refuse(wireError('AUTH_REQUIRED', 'the session ended; sign in again and resume with Last-Event-ID'));
    const access = await this.context.groups.readers.authorize(this.groupId, this.reader.principal, { purpose: 'recheck' });
    if (this.ended) return;
    if (!access.ok) return this.refuse(access.error);
    this.position = Math.max(this.position, access.afterSequence);
    const limit = this.context.limits.maxEventsPerRead;
    for (;;) {
      const rows = await this.context.groups.eventsAfter(this.groupId, this.position, limit);
      for (const row of rows) {
        if (this.ended || this.response.destroyed) return;
        this.position = row.sequence;
        if (!this.response.write(eventFrame(row.sequence, row.document))) {
          await Promise.race([once(this.response, 'drain'), once(this.response, 'close')]);
        }
      }
      if (rows.length < limit) return;
    }
  }
}

/**
 * Opens the stream after `after` (the reader's hidden history is skipped, §8), or answers the
 * refusal through `fail`: a full bound (RATE_LIMITED) or the read rule's.
 */
export async function openEventStream(context: TransportContext, request: IncomingMessage, response: ServerResponse, reader: Reader, groupId: string, after: number, fail: (error: WireError) => void): Promise<void> {
  const slot = context.streams.take(principalKey(reader.principal));
  if (typeof slot === 'string') {
    const scope = slot === 'reader-full' ? 'for this reader' : 'on this node';
    return fail(wireError('RATE_LIMITED', `too many open event streams ${scope}`, { retryAfterMs: context.limits.streamHeartbeatMs }));
  }
  const access = await context.groups.readers.authorize(groupId, reader.principal, { purpose: 'subscribe', afterSequence: after });
  if (!access.ok || request.destroyed) {
    slot();
    return access.ok ? undefined : fail(access.error);
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  // A comment first, so that clients see the stream open before any Event.
  response.write(': open\n\n');
  new EventStream(context, response, reader, groupId, access.afterSequence).start(slot);
}
