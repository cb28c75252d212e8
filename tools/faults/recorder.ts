/**
 * The history as it happens: every Operation invoked, every answer to every copy sent, every
 * reader connection's deliveries, every database outage; plus counters for the report. Also
 * the one way the MissionOwner sends Commands — HTTPS `POST /v1/commands` to a node.
 */

import { request } from 'node:https';
import type { Answer } from './agentLink.js';
import type { Completion, Downtime, History, Operation, ProbeKind, Segment } from './history.js';

export class Recorder implements History {
  readonly operations: Operation[] = [];
  readonly completions: Completion[] = [];
  readonly segments: Segment[] = [];
  readonly downtimes: Downtime[] = [];
  readonly counters = new Map<string, number>();

  count(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  /** A copy was not settled and is sent again: counted in all and by why (its error code, or `lost`). */
  retried(answer: Answer): void {
    this.count('retries');
    this.count(`retry:${answer.type === 'error' ? answer.code : answer.type}`);
  }

  /** The retries by why, for the report. */
  retriesBy(): Record<string, number> {
    const by: Record<string, number> = {};
    for (const [name, n] of this.counters) if (name.startsWith('retry:')) by[name.slice('retry:'.length)] = n;
    return by;
  }

  invoke(command: Record<string, unknown>, probe?: ProbeKind): Operation {
    const op: Operation = {
      id: this.operations.length,
      actionId: String(command['actionId']),
      actorId: String((command['actor'] as { id: string }).id),
      groupId: String(command['groupId']),
      kind: String(command['kind']),
      invokedAt: Date.now(),
      ...(probe === undefined ? {} : { probe }),
    };
    this.operations.push(op);
    return op;
  }

  complete(op: Operation, answer: Answer): Answer {
    this.completions.push({ op: op.id, at: Date.now(), answer });
    this.count(answer.type === 'event' ? 'answersEvent' : answer.type === 'error' ? `answersError` : 'answersLost');
    return answer;
  }

  segment(reader: string, groupId: string, afterSequence: number): Segment {
    const segment: Segment = { reader, groupId, afterSequence, received: [] };
    this.segments.push(segment);
    return segment;
  }
}

/** Sends one signed Command over HTTPS; the answer as a WebSocket copy would have it. */
export function postCommand(wssUrl: string, ca: string, command: Record<string, unknown>, timeoutMs = 15_000): Promise<Answer> {
  const url = new URL('/v1/commands', wssUrl.replace(/^wss:/, 'https:'));
  const body = JSON.stringify(command);
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => resolve({ type: 'lost', reason: error.message }));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          const parsed = JSON.parse(text) as { events?: { sequence: number }[]; error?: { code: string; retryable?: boolean } };
          if (parsed.error !== undefined) {
            resolve({ type: 'error', code: parsed.error.code, retryable: parsed.error.retryable === true });
            return;
          }
          // Keep each Event's exact bytes: they are compared with the log.
          const texts = splitEvents(text);
          resolve({ type: 'event', events: (parsed.events ?? []).map((e, i) => ({ sequence: e.sequence, text: texts[i] ?? '' })) });
        } catch {
          resolve({ type: 'lost', reason: `unreadable answer (${response.statusCode ?? 0})` });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ type: 'lost', reason: error.message }));
    req.end(body);
  });
}

/** The Event texts of a `{"duplicate":…,"events":[…]}` answer, byte for byte. */
function splitEvents(text: string): string[] {
  const start = text.indexOf('"events":[') + '"events":['.length;
  const events: string[] = [];
  let depth = 0;
  let inString = false;
  let from = -1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) from = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) events.push(text.slice(from, i + 1));
    } else if (c === ']' && depth === 0) break;
  }
  return events;
}
