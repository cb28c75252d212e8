/**
 * What one frame of the live session means to the Agent (§17): an EVENT is verified (§6.4) and
 * then answers its Command and/or goes to its Group's stream; an ERROR goes to the Command or
 * Group it names, else to `onError`; a PING is answered. Frames arrive here in order (inbox.ts),
 * from the session that is current when they are handled.
 */

import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../protocol/strictJson.js';
import type { CommandTracker } from './commands.js';
import { eventProblem, isGroupEvent, type ProtocolEvent } from './documents.js';
import { AgentClientError, errorFromDocument, type AgentError } from './errors.js';
import type { EventCheck, EventVerifier } from './eventVerifier.js';
import type { AgentSession } from './session.js';
import type { Subscriptions } from './subscriptions.js';

export interface FrameRouterParts {
  readonly commands: CommandTracker;
  readonly subscriptions: Subscriptions;
  readonly verifier: EventVerifier | undefined;
  /** The live session; a frame from any other one is dropped (its Groups resubscribe from their Cursors). */
  readonly current: () => AgentSession | undefined;
  readonly report: (error: AgentError) => void;
}

export class FrameRouter {
  constructor(private readonly parts: FrameRouterParts) {}

  /** One frame, after every frame before it was handled (inbox.ts). */
  route(session: AgentSession, frame: Record<string, unknown>): void | Promise<void> {
    const { commands, subscriptions, verifier, report } = this.parts;
    if (session !== this.parts.current()) return;
    switch (frame['frameType']) {
      case 'EVENT': {
        const problem = eventProblem(frame['event']);
        if (problem !== null) return report(new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `EVENT ignored: ${problem}`));
        const event = frame['event'] as JsonObject;
        const check = verifier?.verify(event) ?? { ok: true };
        if (check instanceof Promise) return check.then((outcome) => this.deliver(session, event, outcome));
        return this.deliver(session, event, check);
      }
      case 'ERROR': {
        const error = errorFromDocument(frame['error']);
        // A fatal ERROR no Command or Group claims is reported with the close that follows it.
        if (!commands.refused(error) && !subscriptions.refused(error) && error.fatal !== true) report(error);
        return;
      }
      case 'PING':
        if (frame['replyToNonce'] === undefined && typeof frame['nonce'] === 'string') {
          session.send({ frameType: 'PING', nonce: randomBytes(12).toString('base64url'), replyToNonce: frame['nonce'], sentAt: new Date().toISOString() });
        }
        return;
      default:
        report(new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `unexpected ${String(frame['frameType'])} frame ignored`));
    }
  }

  /** Hands a verified Event over; an unverified one is reported and never delivered. */
  private deliver(session: AgentSession, document: JsonObject, check: EventCheck): void {
    const { commands, subscriptions, report } = this.parts;
    // A session that ended while the Registry was read: its Groups are subscribed again from their Cursors.
    if (session !== this.parts.current()) return;
    const event = document as ProtocolEvent;
    if (!check.ok) {
      commands.unverifiedAnswer(event, check.error);
      if (!isGroupEvent(event) || !subscriptions.unverified(event, check.error)) report(check.error);
      return;
    }
    commands.answer(event);
    if (isGroupEvent(event)) subscriptions.event(event);
  }
}
