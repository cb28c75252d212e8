/**
 * One authenticated Agent connection for the fault suite: HELLO, then Command frames whose
 * answers are matched to the copy that asked — an ERROR by its related frame, an EVENT (a
 * Command's own Events carry no frame reference) to the oldest copy of its Action waiting — and
 * Group subscriptions. A connection that drops answers every waiting copy `lost`: the Agent
 * cannot know whether those Commands were applied.
 */

import { createPrivateKey, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import WebSocket from 'ws';
import type { BenchAgent } from '../bench/benchWorld.js';

export type Answer =
  | { readonly type: 'event'; readonly events: { sequence: number; text: string }[] }
  | { readonly type: 'error'; readonly code: string; readonly retryable: boolean }
  | { readonly type: 'lost'; readonly reason: string };

interface Waiting {
  readonly frameId: string;
  readonly actionId: string;
  readonly resolve: (answer: Answer) => void;
  readonly timer: NodeJS.Timeout;
}

export type EventListener = (groupId: string, sequence: number, text: string) => void;

const frameId = () => `urn:uuid:${randomUUID()}`;

export class AgentLink {
  private readonly waiting: Waiting[] = [];
  private listener: EventListener | undefined;
  private down = false;
  readonly closed: Promise<void>;

  private constructor(
    readonly ws: WebSocket,
    readonly agent: BenchAgent,
    readonly url: string,
    readonly sessionEpoch: number,
    /** HELLO's `sessionToken`: the Bearer credential of this Session's HTTPS requests (the Artifact store). */
    readonly sessionToken: string,
  ) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    void this.closed.then(() => this.lostAll('connection closed'));
    ws.on('message', (data) => this.received(data.toString()));
  }

  /** Connects and authenticates; rejects when HELLO fails or the node is away. */
  static open(url: string, ca: string, agent: BenchAgent, key: KeyObject = createPrivateKey(agent.privateKeyPem), timeoutMs = 10_000): Promise<AgentLink> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ca, perMessageDeflate: false, handshakeTimeout: timeoutMs });
      const clientNonce = randomBytes(16).toString('base64url');
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error('HELLO timed out'));
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        ws.terminate();
        reject(error);
      };
      ws.once('error', fail);
      ws.once('close', () => fail(new Error('closed during HELLO')));
      ws.once('open', () => ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'HELLO', phase: 'client_init', agentId: agent.id, keyId: agent.keyId, clientNonce, supportedVersions: ['0.1'] })));
      const onHello = (data: WebSocket.RawData): void => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        if (frame['phase'] === 'server_challenge') {
          const challengeSignature = sign(null, Buffer.from(String(frame['challenge']), 'base64url'), key).toString('base64url');
          ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'HELLO', phase: 'client_response', agentId: agent.id, keyId: agent.keyId, clientNonce, serverNonce: frame['serverNonce'], challengeSignature }));
        } else if (frame['phase'] === 'server_accept') {
          clearTimeout(timer);
          ws.off('message', onHello);
          ws.removeAllListeners('error');
          ws.removeAllListeners('close');
          ws.on('error', () => undefined);
          resolve(new AgentLink(ws, agent, url, Number(frame['sessionEpoch']), String(frame['sessionToken'])));
        } else fail(new Error(`HELLO refused: ${data.toString().slice(0, 200)}`));
      };
      ws.on('message', onHello);
    });
  }

  get isOpen(): boolean {
    return !this.down && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends one signed Command (as a COMMAND frame) and resolves with this copy's answer. */
  command(command: Record<string, unknown>, timeoutMs = 15_000): Promise<Answer> {
    const id = frameId();
    const actionId = String(command['actionId']);
    return new Promise((resolve) => {
      if (!this.isOpen) {
        resolve({ type: 'lost', reason: 'not connected' });
        return;
      }
      const timer = setTimeout(() => this.settle((w) => w.frameId === id, { type: 'lost', reason: 'no answer in time' }), timeoutMs);
      this.waiting.push({ frameId: id, actionId, resolve, timer });
      this.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: id, frameType: 'COMMAND', command }));
    });
  }

  subscribe(groupId: string, afterSequence: number, listener: EventListener): void {
    this.listener = listener;
    this.ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: frameId(), frameType: 'SUBSCRIBE', subscriptionId: frameId(), groups: [{ groupId, afterSequence }] }));
  }

  /** Drops the connection at once, as a crash or a network fault would. */
  terminate(): void {
    this.ws.terminate();
  }

  private received(text: string): void {
    const frame = JSON.parse(text) as { frameType: string; event?: Record<string, unknown>; error?: { code: string; retryable?: boolean; relatedFrameId?: string; relatedActionId?: string } };
    if (frame.frameType === 'EVENT' && frame.event !== undefined) {
      const event = frame.event as { groupId?: string; sequence?: number; cause?: { id?: string } };
      const eventText = text.slice('{"event":'.length, text.lastIndexOf(',"frameId":'));
      const actionId = event.cause?.id;
      const answered = actionId !== undefined && this.settle((w) => w.actionId === actionId, { type: 'event', events: [{ sequence: Number(event.sequence), text: eventText }] });
      if (!answered && event.groupId !== undefined) this.listener?.(event.groupId, Number(event.sequence), eventText);
    } else if (frame.frameType === 'ERROR' && frame.error !== undefined) {
      const { code, retryable, relatedFrameId } = frame.error;
      this.settle((w) => w.frameId === relatedFrameId, { type: 'error', code, retryable: retryable === true });
    }
  }

  /** Resolves the first waiting copy matching `which`; false when none waits. */
  private settle(which: (w: Waiting) => boolean, answer: Answer): boolean {
    const index = this.waiting.findIndex(which);
    if (index < 0) return false;
    const [w] = this.waiting.splice(index, 1) as [Waiting];
    clearTimeout(w.timer);
    w.resolve(answer);
    return true;
  }

  private lostAll(reason: string): void {
    this.down = true;
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.resolve({ type: 'lost', reason });
    }
  }
}
