/**
 * The human MissionOwner at the console's HTTPS API (docs/human-api.md), as the console does it:
 * a challenge signed with her Ed25519 key for a session token, `GET /v1/groups/{g}/view` for the
 * pending Approval, and her individually signed Commands through `POST /v1/commands`
 * (`mission.request_changes`, `mission.approve` with a signed Approval document,
 * `mission.assign_coordinator`).
 */

import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { canonicalBytes } from '#src/protocol/jcs.js';
import type { Principal } from '#src/protocol/principal.js';
import { signBytes, signDocument, type SigningKey } from '#src/protocol/signing/signDocument.js';
import type { JsonObject } from '#src/protocol/strictJson.js';

interface Answer {
  readonly status: number;
  readonly body: JsonObject;
}

export class HumanConsole {
  private token = '';
  constructor(
    private readonly origin: string,
    private readonly ca: string,
    readonly principal: Principal,
    private readonly key: SigningKey,
  ) {}

  private call(method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = request(new URL(path, this.origin), { method, ca: this.ca, headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: raw === '' ? {} : (JSON.parse(raw) as JsonObject) });
        });
      });
      req.on('error', reject);
      req.end(text);
    });
  }

  async signIn(): Promise<void> {
    const challenge = await this.call('POST', '/v1/human-sessions/challenge', { humanId: this.principal.id, keyId: this.key.keyId });
    if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status}`);
    const signature = signBytes(this.key.privateKey, canonicalBytes(challenge.body['transcript'] as JsonObject));
    const session = await this.call('POST', '/v1/human-sessions', { challengeId: challenge.body['challengeId'], signature });
    if (session.status !== 201) throw new Error(`sign-in: ${session.status} ${JSON.stringify(session.body)}`);
    this.token = String(session.body['token']);
  }

  async view(groupId: string): Promise<JsonObject> {
    const answer = await this.call('GET', `/v1/groups/${encodeURIComponent(groupId)}/view`, undefined, this.token);
    if (answer.status !== 200) throw new Error(`view: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  private async membershipEpoch(groupId: string): Promise<number | undefined> {
    const me = await this.call('GET', '/v1/me', undefined, this.token);
    const entry = ((me.body['groups'] ?? []) as JsonObject[]).find((g) => g['groupId'] === groupId && g['membershipState'] === 'active');
    return typeof entry?.['membershipEpoch'] === 'number' ? entry['membershipEpoch'] : undefined;
  }

  /** One signed Command through `POST /v1/commands`; its Events, or the refusal's code. */
  async command(groupId: string, kind: string, payload: JsonObject): Promise<{ ok: true; events: JsonObject[] } | { ok: false; code: string }> {
    const membershipEpoch = await this.membershipEpoch(groupId);
    const command = signCommand({ actor: this.principal, kind, groupId, issuedAt: timestampOf(Date.now()), payload, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) }, this.key);
    const answer = await this.call('POST', '/v1/commands', command);
    if (answer.status >= 300) return { ok: false, code: String((answer.body['error'] as JsonObject | undefined)?.['code'] ?? answer.status) };
    return { ok: true, events: (answer.body['events'] ?? []) as JsonObject[] };
  }

  /** The Mission's pending Approval, as the console's Approval panel reads it. */
  async pendingApproval(groupId: string): Promise<{ missionId: string; missionRevision: number; artifactHashes: string[] } | undefined> {
    const view = await this.view(groupId);
    const pending = view['pendingApproval'] as { missionRevision: number; artifacts: { contentHash: string }[] } | null;
    if (pending === null || pending === undefined) return undefined;
    return { missionId: String((view['mission'] as JsonObject)['missionId']), missionRevision: pending.missionRevision, artifactHashes: pending.artifacts.map((a) => a.contentHash) };
  }

  requestChanges(groupId: string, missionRevision: number, feedback: string) {
    return this.command(groupId, 'mission.request_changes', { missionRevision, feedback });
  }

  approve(groupId: string, pending: { missionId: string; missionRevision: number; artifactHashes: string[] }) {
    const approval = signDocument('approval', {
      approvalId: `urn:uuid:${randomUUID()}`, kind: 'mission_final', decision: 'approved', missionId: pending.missionId, groupId, missionRevision: pending.missionRevision,
      artifactHashes: pending.artifactHashes, acceptancePolicyVersion: '1.0.0', approver: this.principal, comments: 'Reviewed in the console; approved.', conditions: [], occurredAt: timestampOf(Date.now()),
    }, this.key) as unknown as JsonObject;
    return this.command(groupId, 'mission.approve', { approvalId: String(approval['approvalId']), missionRevision: pending.missionRevision, artifactHashes: pending.artifactHashes, acceptancePolicyVersion: '1.0.0', comments: 'Reviewed in the console; approved.', approval });
  }
}
