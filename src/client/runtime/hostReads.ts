/**
 * What the runtime host asks the Group Authority over HTTPS with the Agent's live Session
 * (docs/human-api.md, the same reads a human has): the Groups it is a worker in and its
 * Membership Epochs (`/v1/me`), and a WorkItem as the Authority holds it now
 * (`/v1/groups/{g}/view`), to re-check an Ownership Epoch and Execution Lease after a restart
 * (§11.5) and to hand a resumed job its contract.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { VerifiedContextPackage } from '../contextPackages.js';
import { errorFromDocument } from '../errors.js';
import { httpsGet } from '../httpsGet.js';
import type { WorkItemDocument, WorkLease, WorkOwner } from '../workDocuments.js';
import { MAX_JOB_CONTEXT_PACKAGES, MAX_VIEW_BYTES } from './hostLimits.js';

/** One WorkItem line of a Group's view. */
export interface AuthorityWorkItem {
  readonly workItemId: string;
  readonly state: WorkItemDocument['state'];
  readonly owner: WorkOwner | null;
  readonly executionLease: WorkLease | null;
  readonly document: WorkItemDocument;
}

export interface MemberGroup {
  readonly groupId: string;
  readonly role: string;
  readonly membershipState: string;
  readonly membershipEpoch: number;
}

async function getJson(agent: MissionWeaveAgent, path: string): Promise<unknown> {
  const endpoint = agent.artifactEndpoint();
  const url = new URL(path, endpoint.origin);
  const answer = await httpsGet(url, endpoint.ca, endpoint.timeoutMs ?? 30_000, endpoint.sessionToken, MAX_VIEW_BYTES);
  const body: unknown = JSON.parse(answer.body.toString('utf8'));
  if (answer.status !== 200) throw errorFromDocument((body as { error?: unknown } | null)?.error ?? body);
  return body;
}

/**
 * The Groups the Agent holds an active Membership with `role` in (default `worker`), with the
 * Membership Epoch its Commands there carry: an Agent resuming from a saved Cursor past its
 * Membership Events learns it here.
 */
export async function memberGroups(agent: MissionWeaveAgent, role = 'worker'): Promise<MemberGroup[]> {
  const me = (await getJson(agent, '/v1/me')) as { groups?: readonly MemberGroup[] };
  return (me.groups ?? []).filter((g) => g.role === role && g.membershipState === 'active');
}

/**
 * The Agent's Membership Epoch in `groupId` as the Authority holds it now (`/v1/me`), whatever its
 * role; undefined when it holds no active Membership there. What a Command refused
 * MEMBERSHIP_STALE is rebased onto (outboxRebase.ts): the cached epoch may be the fenced one.
 */
export async function membershipEpochIn(agent: MissionWeaveAgent, groupId: string): Promise<number | undefined> {
  const me = (await getJson(agent, '/v1/me')) as { groups?: readonly MemberGroup[] };
  return (me.groups ?? []).find((g) => g.groupId === groupId && g.membershipState === 'active')?.membershipEpoch;
}

/** The Group's WorkItems as the Authority holds them now (its view, within the server's bounds). */
export async function authorityWorkItems(agent: MissionWeaveAgent, groupId: string): Promise<readonly AuthorityWorkItem[]> {
  const view = (await getJson(agent, `/v1/groups/${encodeURIComponent(groupId)}/view`)) as { workItems?: readonly AuthorityWorkItem[] };
  return view.workItems ?? [];
}

/** The WorkItem as the Authority holds it now, or undefined when the Group has none by that ID. */
export async function authorityWorkItem(agent: MissionWeaveAgent, groupId: string, workItemId: string): Promise<AuthorityWorkItem | undefined> {
  return (await authorityWorkItems(agent, groupId)).find((w) => w.workItemId === workItemId);
}

/** The Group's newest Context Packages (at most MAX_JOB_CONTEXT_PACKAGES), verified, for one job; none when the read fails (logged). */
export async function jobPackages(agent: MissionWeaveAgent, groupId: string, log: (line: string) => void): Promise<VerifiedContextPackage[]> {
  try {
    const client = agent.contextPackages();
    const listed = (await client.list(groupId)).slice(-MAX_JOB_CONTEXT_PACKAGES);
    return await Promise.all(listed.map((entry) => client.fetch(groupId, entry.contextPackageId, { hash: entry.packageHash })));
  } catch (error) {
    log(`context of ${groupId}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** The Group's published Artifact with `contentHash` (from its view), as the host adopts it; undefined when none. */
export async function authorityArtifact(agent: MissionWeaveAgent, groupId: string, contentHash: string): Promise<{ workItemId: string; producerAgentId: string } | undefined> {
  const view = (await getJson(agent, `/v1/groups/${encodeURIComponent(groupId)}/view`)) as { artifacts?: readonly { contentHash?: string; workItemId?: string; manifest?: { producer?: { agentId?: string } } }[] };
  const found = (view.artifacts ?? []).find((a) => a.contentHash === contentHash);
  if (found?.workItemId === undefined || found.manifest?.producer?.agentId === undefined) return undefined;
  return { workItemId: found.workItemId, producerAgentId: found.manifest.producer.agentId };
}
