/**
 * A rebase cut short after its `work.start`, against a real node and its reactor (§11.3, §15.1,
 * §19): a kept `work.submit` is fenced by a new Session (AUTH_STALE_SESSION), the rebase takes a
 * new Execution Lease, and then its `beforeResign` — where MCP uploads and publishes the kept
 * Artifacts (mcp/keptArtifacts.ts) — throws once, the Session staying open. The Command is left to
 * the next sending (`unanswered`). That sending rebases it again: its `work.start` is refused
 * because the WorkItem is `active` — under the lease the first attempt took, this Agent's, in this
 * Session — and the rebase asks the Authority which lease that is and cites it, with no second
 * `work.start`. The WorkItem is submitted once, under that lease. Before, the second `work.start`
 * was asked again for RECHECK_WAIT_MS and the Command recorded refused: the submission lost,
 * although MCP had answered `queued`.
 */

import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { signWith } from '../src/client/signer.js';
import { signWorkEvidence } from '../src/client/workEvidence.js';
import { OutboxCommands } from '../src/client/runtime/outboxCommands.js';
import type { RebaseLease } from '../src/client/runtime/outboxRebase.js';
import { outcomeText, sendOutbox } from '../src/client/runtime/projectionSend.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { offer, eventsOfWork, dropWorker, projectionWorker } = runtimeHostWorld('mw-outbox-own-lease-', { reactor: true });

it('rebases a kept work.submit again after its beforeResign threw once in the same Session: it cites the lease the first attempt took, no second work.start, submitted once', async () => {
  const { runtime, agent, worker, groupId, membershipEpoch } = await projectionWorker('projection');
  const workItemId = await offer();
  const owned = await worker.accept({ groupId, workItemId });
  const execution = await worker.start(owned);
  const { contentHash } = await execution.publishArtifact({ bytes: Buffer.from(`the result of ${workItemId}`) }, { mediaType: 'text/plain', schemaUri: 'urn:missionweave:schema:text' });
  const evidence = await Promise.all(
    execution.workItem.contract.acceptanceCriteria.map((criterion) =>
      signWorkEvidence(agent, execution.workItem, { type: criterion.evidenceRequired[0] ?? 'deterministic_test', criterionIds: [criterion.criterionId], method: 'Checked by the test.', result: 'passed', artifactHashes: [contentHash] }),
    ),
  );
  // Kept under the first Session and never sent: the process was cut off between keeping and sending.
  const firstSession = agent.sessionEpoch as number;
  const kept = {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: { type: 'agent', id: agent.agentId },
    kind: 'work.submit',
    groupId,
    sessionEpoch: firstSession,
    membershipEpoch,
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: new Date().toISOString(),
    payload: { workItemId, ownershipEpoch: owned.ownershipEpoch, executionLeaseId: execution.leaseId, artifactHashes: [contentHash], evidence },
  };
  runtime.projection.outbox.add(JSON.stringify((await signWith('command', kept, agent.signer)).document));

  dropWorker();
  await until(() => ((agent.sessionEpoch ?? 0) > firstSession ? true : undefined), 'a new Session');
  const secondSession = agent.sessionEpoch as number;

  // The upload of the kept Artifacts is cut short once, after the new lease was granted.
  const resigns: RebaseLease[] = [];
  const commands = new OutboxCommands(agent, () => runtime.projection.outbox, () => membershipEpoch, (_command, lease) => {
    resigns.push(lease);
    return resigns.length === 1 ? Promise.reject(new Error('the upload was cut short')) : Promise.resolve();
  });
  const send = () => sendOutbox(runtime.projection.outbox, agent, commands.inFlight, commands.rebase);

  const first = await send();
  expect(first).toEqual([{ actionId: kept.actionId, outcome: 'unanswered', error: expect.objectContaining({ message: 'the upload was cut short' }) }]);
  expect(runtime.projection.outbox.get(kept.actionId)).toMatchObject({ state: 'sent' });
  const granted = resigns[0]?.executionLeaseId as string;
  expect(granted).not.toBe(execution.leaseId);

  // The Session stays open: the next sending rebases it onto the lease the first attempt took.
  const second = await send();
  expect(second.map(outcomeText)).toEqual([expect.stringMatching(new RegExp(`: acked \\(rebased from ${kept.actionId}\\)$`))]);
  expect(resigns.map((lease) => lease.executionLeaseId)).toEqual([granted, granted]);
  const rebasedId = second[0]?.actionId as string;
  const rebased = JSON.parse(runtime.projection.outbox.get(rebasedId)?.bytes.toString('utf8') as string) as typeof kept;
  expect(rebased).toMatchObject({ sessionEpoch: secondSession, correlationId: kept.correlationId, payload: { executionLeaseId: granted } });
  expect(rebased.actionId).not.toBe(kept.actionId);
  expect(agent.sessionEpoch).toBe(secondSession);

  const events = await eventsOfWork(workItemId);
  // One work.started for the first Session's lease, one for the rebase's: none for the second attempt.
  const started = events.filter((e) => e['kind'] === 'work.started').map((e) => (e['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId);
  expect(started).toEqual([execution.leaseId, granted]);
  expect(events.filter((e) => e['kind'] === 'work.submitted').map((e) => (e['cause'] as { id: string }).id)).toEqual([rebasedId]);
});
