/**
 * How `missionweave disput` speaks for a Principal of the operator folder to a running node, the
 * same way its other clients do: an Agent connects a MissionWeaveAgent over wss (HELLO) and sends
 * its Commands on that session (the node refuses an Agent's Command over HTTPS, §6.3); a human
 * signs in with a challenge signed by its key (docs/human-api.md) and POSTs each signed Command to
 * `/v1/commands`. Both read the Group's Events with their bearer token (`GET /v1/groups/{g}/events`),
 * through the node's one read rule, and both sign under the Membership Epoch `GET /v1/me` names.
 */

import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { signCommand, timestampOf } from '../../app/issueDocuments.js';
import { MissionWeaveAgent } from '../../client/agent.js';
import { AgentContext } from '../../client/mcp/agentContext.js';
import { MissionWeaveError } from '../../client/errors.js';
import { canonicalBytes } from '../../protocol/jcs.js';
import { signBytes } from '../../protocol/signing/signDocument.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { UsageError } from '../args.js';
import type { Home } from '../../home/home.js';
import { DISPUT_HTTP_TIMEOUT_MS, EVENTS_PAGE } from './disputCliLimits.js';
import { nodeOrigin } from '../nodeAddress.js';

/** A refused Command, as the node said it: the §19 code, its message and details. */
export interface NodeRefusal {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type SubmitOutcome = { readonly ok: true; readonly events: readonly JsonObject[] } | { readonly ok: false; readonly error: NodeRefusal };

export interface NodeLink {
  /** The Principal the link speaks for. */
  readonly principal: { readonly type: 'agent' | 'human'; readonly id: string };
  /** Every Event of the Group, in order. */
  events(groupId: string): Promise<JsonObject[]>;
  submit(groupId: string, kind: string, payload: JsonObject): Promise<SubmitOutcome>;
  close(): Promise<void>;
}

function https(origin: URL, ca: Buffer, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: JsonObject }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, origin), { method, ca, headers, minVersion: 'TLSv1.3', timeout: DISPUT_HTTP_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: (text === '' ? {} : JSON.parse(text)) as JsonObject });
        } catch {
          reject(new Error(`${method} ${path} answered ${res.statusCode ?? 0} without JSON`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${path} within ${DISPUT_HTTP_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function pagedEvents(read: (path: string) => Promise<JsonObject>, groupId: string): Promise<JsonObject[]> {
  const all: JsonObject[] = [];
  for (let after = 0; ; ) {
    const page = await read(`/v1/groups/${encodeURIComponent(groupId)}/events?after=${after}&limit=${EVENTS_PAGE}`);
    const events = (page['events'] ?? []) as JsonObject[];
    all.push(...events);
    if (events.length < EVENTS_PAGE) return all;
    after = Number((events.at(-1) as JsonObject)['sequence']);
  }
}

function refusalOf(body: JsonObject, status: number): NodeRefusal {
  const error = (body['error'] ?? {}) as JsonObject;
  return { code: String(error['code'] ?? `HTTP_${status}`), message: String(error['message'] ?? ''), ...(error['details'] === undefined ? {} : { details: error['details'] as Record<string, unknown> }) };
}

async function agentLink(home: Home, handle: string, origin: URL, ca: Buffer): Promise<NodeLink> {
  const principal = home.principal(handle);
  if (principal.privateKeyFile === undefined) throw new UsageError(`${handle}'s private key is held elsewhere`);
  const url = `wss://${origin.host}/v1/ws`;
  const agent = new MissionWeaveAgent({ url, ca, agentId: principal.id, keyId: principal.keyId, privateKey: home.privateKey(principal.privateKeyFile) });
  agent.onError(() => {});
  agent.onEvent(() => {});
  await agent.connect();
  const context = new AgentContext({ agent, origin, ca, extension: 'disput' });
  // A session replaced by another run of this Agent fails it for good (4501): what it failed with
  // says why better than the read or Command that found it gone.
  const cause = (error: unknown): unknown => agent.failure ?? error;
  return {
    principal: { type: 'agent', id: principal.id },
    async events(groupId) {
      try {
        return await pagedEvents((path) => context.read(path), groupId);
      } catch (error) {
        throw cause(error);
      }
    },
    async submit(groupId, kind, payload) {
      try {
        const first = await context.command(kind, payload, groupId);
        // The session answers with the Command's first Event; the log holds all it caused.
        const after = (first.sequence ?? 1) - 1;
        const page = await context.read(`/v1/groups/${encodeURIComponent(groupId)}/events?after=${after}&limit=${EVENTS_PAGE}`);
        const caused = ((page['events'] ?? []) as JsonObject[]).filter((e) => (e['cause'] as JsonObject | undefined)?.['id'] === first.cause.id);
        return { ok: true, events: caused.length > 0 ? caused : [first as unknown as JsonObject] };
      } catch (error) {
        // The Authority's refusal of the Command is an answer; a lost session is not about the turn.
        if (!(error instanceof MissionWeaveError) || error.code === 'AUTH_STALE_SESSION') throw cause(error);
        return { ok: false, error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } };
      }
    },
    close: () => agent.close(),
  };
}

async function humanLink(home: Home, handle: string, origin: URL, ca: Buffer): Promise<NodeLink> {
  const principal = home.principal(handle);
  if (principal.privateKeyFile === undefined) throw new UsageError(`${handle}'s private key is held elsewhere (enrolled with --public-key): sign there`);
  const key = { keyId: principal.keyId, privateKey: home.privateKey(principal.privateKeyFile) };
  const challenge = await https(origin, ca, 'POST', '/v1/human-sessions/challenge', undefined, { humanId: principal.id, keyId: principal.keyId });
  if (challenge.status !== 200) throw new Error(`sign-in challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const signature = signBytes(key.privateKey, canonicalBytes(challenge.body['transcript']));
  const session = await https(origin, ca, 'POST', '/v1/human-sessions', undefined, { challengeId: challenge.body['challengeId'], signature });
  if (session.status !== 201) throw new Error(`sign-in: ${session.status} ${JSON.stringify(session.body)}`);
  const token = String(session.body['token']);
  const read = async (path: string): Promise<JsonObject> => {
    const answer = await https(origin, ca, 'GET', path, token);
    if (answer.status >= 400) throw new Error(`GET ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    principal: { type: 'human', id: principal.id },
    events: (groupId) => pagedEvents(read, groupId),
    async submit(groupId, kind, payload) {
      const me = await read('/v1/me');
      const entry = ((me['groups'] ?? []) as JsonObject[]).find((g) => g['groupId'] === groupId && g['membershipState'] === 'active');
      const membershipEpoch = entry?.['membershipEpoch'];
      const command = signCommand({ actor: { type: 'human', id: principal.id }, kind, groupId, issuedAt: timestampOf(Date.now()), payload, ...(typeof membershipEpoch === 'number' ? { membershipEpoch } : {}) }, key);
      const answer = await https(origin, ca, 'POST', '/v1/commands', undefined, command);
      if (answer.status >= 300) return { ok: false, error: refusalOf(answer.body, answer.status) };
      return { ok: true, events: (answer.body['events'] ?? []) as JsonObject[] };
    },
    close: async () => {
      await https(origin, ca, 'DELETE', '/v1/human-sessions/current', token).catch(() => undefined);
    },
  };
}

/** Connects as `handle` to `url` (`https://host:port`), else the node serving the folder, else the one its configuration names. */
export async function connect(home: Home, handle: string, url?: string): Promise<NodeLink> {
  const config = home.config();
  const origin = nodeOrigin(home, url);
  const ca = readFileSync(home.path(config.tls.certFile));
  return home.principal(handle).type === 'agent' ? agentLink(home, handle, origin, ca) : humanLink(home, handle, origin, ca);
}
