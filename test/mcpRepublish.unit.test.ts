/**
 * `work_submit`'s inline Artifacts published again by a later run of the same WorkItem
 * (src/client/mcp/inlineArtifacts.ts over src/client/runtime/hostArtifacts.ts). A run of the MCP
 * tools can publish its result and end before `work.submit` lands (a refused submission, then a
 * checkpoint; or the MCP server killed): the next run, after a restart, gives the same text, and
 * the Authority refuses the second `artifact.publish` (a content hash is published once per Group,
 * §13.1). The content THIS WorkItem published by THIS Agent is adopted, as the runtime host does;
 * another WorkItem's or another Agent's, or a refusal of another kind, is still the tool's error.
 * The execution and the Authority's view are stood in for; the hashing is the real one.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MissionWeaveError } from '../src/client/errors.js';
import { publishInlineArtifacts, type PublishingAgent, type ResolvedArtifact } from '../src/client/mcp/inlineArtifacts.js';
import type { PublishedOfGroup } from '../src/client/runtime/hostArtifacts.js';
import type { WorkExecution } from '../src/client/workExecution.js';

const AGENT = 'urn:missionweave:agent:builder';
const WORK_ITEM = 'urn:missionweave:work-item:migration';
const TEXT = 'ALTER TABLE invoices ADD COLUMN ledger_id uuid;\n';
const HASH = `sha256:${createHash('sha256').update(TEXT).digest('hex')}`;
const resolved: ResolvedArtifact[] = [{ bytes: Buffer.from(TEXT, 'utf8'), details: { mediaType: 'application/sql', schemaUri: 'urn:missionweave:schema:sql' } }];

function refused(code: 'INVALID_STATE_TRANSITION' | 'WORK_LEASE_EXPIRED'): MissionWeaveError {
  return new MissionWeaveError({ code, message: code === 'INVALID_STATE_TRANSITION' ? 'this content hash is already published in the Group' : 'the Execution Lease expired', retryable: false, occurredAt: new Date().toISOString() });
}

interface Seen {
  publishes: number;
  lookups: string[];
}

/** A new execution of WORK_ITEM (nothing published by it yet) whose `artifact.publish` gets `answer`. */
function executionOf(answer: 'published' | MissionWeaveError, seen: Seen, already: readonly string[] = []): WorkExecution {
  return {
    workItemId: WORK_ITEM,
    groupId: 'urn:missionweave:group:g',
    publishedArtifactHashes: already,
    publishArtifact: () => {
      seen.publishes += 1;
      return answer === 'published' ? Promise.resolve({ contentHash: HASH, sizeBytes: Buffer.byteLength(TEXT) }) : Promise.reject(answer);
    },
  } as unknown as WorkExecution;
}

function publisher(published: PublishedOfGroup | undefined, seen: Seen): PublishingAgent {
  return {
    agentId: AGENT,
    lookup: (contentHash) => {
      seen.lookups.push(contentHash);
      return Promise.resolve(contentHash === HASH ? published : undefined);
    },
  };
}

const fresh = (): Seen => ({ publishes: 0, lookups: [] });

describe('inline Artifacts published again by a later run of the same WorkItem', () => {
  it('adopts the content THIS WorkItem published by THIS Agent before: submitted, not published again, not refused', async () => {
    const seen = fresh();
    const submitted = await publishInlineArtifacts(executionOf(refused('INVALID_STATE_TRANSITION'), seen), resolved, publisher({ workItemId: WORK_ITEM, producerAgentId: AGENT }, seen));
    expect(submitted).toEqual([{ contentHash: HASH, sizeBytes: Buffer.byteLength(TEXT), mediaType: 'application/sql', published: false, adopted: true }]);
    expect(seen).toEqual({ publishes: 1, lookups: [HASH] });
  });

  it("still refuses another WorkItem's, another Agent's, or one the Group does not list", async () => {
    const others: (PublishedOfGroup | undefined)[] = [{ workItemId: 'urn:missionweave:work-item:other', producerAgentId: AGENT }, { workItemId: WORK_ITEM, producerAgentId: 'urn:missionweave:agent:other' }, undefined];
    for (const published of others) {
      const seen = fresh();
      await expect(publishInlineArtifacts(executionOf(refused('INVALID_STATE_TRANSITION'), seen), resolved, publisher(published, seen))).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
      expect(seen.lookups).toEqual([HASH]);
    }
  });

  it('passes any other refusal through without looking anything up', async () => {
    const seen = fresh();
    await expect(publishInlineArtifacts(executionOf(refused('WORK_LEASE_EXPIRED'), seen), resolved, publisher({ workItemId: WORK_ITEM, producerAgentId: AGENT }, seen))).rejects.toMatchObject({ code: 'WORK_LEASE_EXPIRED' });
    expect(seen.lookups).toEqual([]);
  });

  it('publishes new content once, and a retried call of the same execution reuses its hash without asking the Authority', async () => {
    const seen = fresh();
    expect(await publishInlineArtifacts(executionOf('published', seen), resolved, publisher(undefined, seen))).toEqual([{ contentHash: HASH, sizeBytes: Buffer.byteLength(TEXT), mediaType: 'application/sql', published: true }]);
    expect(await publishInlineArtifacts(executionOf('published', seen, [HASH]), resolved, publisher(undefined, seen))).toEqual([{ contentHash: HASH, sizeBytes: Buffer.byteLength(TEXT), mediaType: 'application/sql', published: false }]);
    expect(seen).toEqual({ publishes: 1, lookups: [] });
  });
});
