/**
 * Isolation of a job (§13.3, §12; src/client/runtime/job.ts): a job of Mission A is handed only
 * A's Context Packages, and its token getter asks the Authorization Service for A's WorkItem
 * only — a request naming Mission B's Group is refused before anything is asked. The host
 * builds every job through `createJob`, so what holds here holds for every handler.
 */

import { describe, expect, it } from 'vitest';
import type { CapabilityToken } from '../../src/client/capabilities.js';
import type { VerifiedContextPackage } from '../../src/client/contextPackages.js';
import { createJob, type CapabilityAsk, type JobActions } from '../../src/client/runtime/job.js';
import { EXAMPLE_WORK_CONTRACT } from '../support/payloadExamples.js';

const A = 'urn:missionweave:group:mission-a';
const B = 'urn:missionweave:group:mission-b';

function contextPackage(groupId: string, id: string, summary: string): VerifiedContextPackage {
  return {
    hash: `sha256:${id}`,
    document: {
      contextPackageId: id,
      version: 1,
      missionId: groupId.replace('group', 'mission'),
      groupId,
      sourceEventRange: { fromSequence: 1, toSequence: 2, eventIds: [] },
      artifactHashes: [],
      summary,
      decisions: [],
      constraints: [],
      unresolvedQuestions: [],
    },
  };
}

/** The actions of A's run: each token request is recorded with the run's own scope. */
function actionsOfA(asked: { groupId: string; ask: CapabilityAsk }[]): JobActions {
  return {
    token: (ask) => {
      asked.push({ groupId: A, ask });
      return Promise.resolve({ token: 'secret-of-a', claims: { groupId: A } } as unknown as CapabilityToken);
    },
    checkpoint: () => Promise.resolve('continue'),
    publishArtifact: () => Promise.resolve({ contentHash: 'sha256:00' }),
    submit: () => Promise.resolve(),
    fail: () => Promise.resolve(),
  };
}

describe('a job of Mission A', () => {
  const asked: { groupId: string; ask: CapabilityAsk }[] = [];
  const job = createJob({
    groupId: A,
    workItemId: 'urn:missionweave:work-item:a-1',
    contract: EXAMPLE_WORK_CONTRACT as never,
    // What a careless host might hold for the Agent: both Missions' packages.
    packages: [contextPackage(A, 'urn:uuid:pkg-a', 'A: the ledger port'), contextPackage(B, 'urn:uuid:pkg-b', 'B: the secret acquisition')],
    resumeText: '{"step":2}',
    signal: new AbortController().signal,
    actions: actionsOfA(asked),
  });

  it("gets only A's Context Packages: none of B's package IDs or content", () => {
    expect(job.context.packages.map((p) => p.document.contextPackageId)).toEqual(['urn:uuid:pkg-a']);
    const text = JSON.stringify(job);
    expect(text).not.toContain('urn:uuid:pkg-b');
    expect(text).not.toContain('secret acquisition');
    expect(text).not.toContain(B);
  });

  it("gets tokens for A only: a request naming B's Group is refused and nothing is asked", async () => {
    await expect(job.token({ groupId: B })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', groupId: A });
    expect(asked).toEqual([]);
    await expect(job.token('acme.sql-migration@1.5.0')).resolves.toMatchObject({ token: 'secret-of-a' });
    await expect(job.token({ groupId: A, expiresInSeconds: 60 })).resolves.toMatchObject({ claims: { groupId: A } });
    expect(asked).toEqual([
      { groupId: A, ask: { tools: ['acme.sql-migration@1.5.0'] } },
      { groupId: A, ask: { groupId: A, expiresInSeconds: 60 } },
    ]);
  });

  it('resumes from its own last safe checkpoint and refuses checkpoint data that is not JSON', async () => {
    expect(job.resumeFrom).toEqual({ step: 2 });
    await expect(job.checkpoint(undefined)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(job.checkpoint({ step: 3 })).resolves.toBe('continue');
  });
});
