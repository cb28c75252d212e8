/**
 * The conformance evidence a decision yields (src/app/evidence/pipelineEvidence.ts): the
 * transitions of what it changed, a same-state row when an Event names an unchanged target, and
 * the state a refusal found its target in.
 */

import { expect, it } from 'vitest';
import { acceptedFacts, refusalTarget } from '../src/app/evidence/pipelineEvidence.js';
import { decideGroupCommand } from './support/coreDecider.js';
import { evolveGroup } from './support/coreDecider.js';
import type { GroupState } from '../src/domain/kinds/groupState.js';
import { coreRegistry } from './support/coreDecider.js';
import type { CommandEnvelope } from '../src/domain/model.js';
import { recordDrafts, testContext } from './support/specification.js';
import { GROUP, WORK, WORKER, WORKER2, WORLD, command, groupDecider, offeredWork, stateOf, steps, workGroup } from './domain/fixtures.js';

const coreKinds = coreRegistry();

function decideFacts(state: GroupState, cmd: CommandEnvelope) {
  const ctx = testContext(WORLD);
  const decision = decideGroupCommand(state, cmd, ctx);
  if (!decision.ok) throw new Error(`${cmd.kind} refused: ${decision.error.reason}`);
  const after = recordDrafts(groupDecider, state, decision.events, cmd, ctx).reduce(evolveGroup, state);
  return acceptedFacts(cmd, decision.events, new Map([[GROUP, state]]), (id) => (id === GROUP ? (after as GroupState) : undefined));
}

it('given an open WorkItem, when it is offered, then the evidence is the kind, its Event and open → offered', () => {
  const state = stateOf(workGroup());
  const facts = decideFacts(state, steps.offer([WORKER])(state));
  expect(facts).toEqual([
    { fact: 'accepted', kind: 'work.offer' },
    { fact: 'appended', kind: 'work.offer', event: 'work.offer.created' },
    { fact: 'transition', kind: 'work.offer', target: 'work-item', from: 'open', to: 'offered' },
  ]);
});

it('given an offered WorkItem, when it is offered again, then the unchanged state is a row of its own (offered → offered)', () => {
  const state = stateOf(offeredWork());
  const facts = decideFacts(state, steps.offer([WORKER2])(state));
  expect(facts).toContainEqual({ fact: 'transition', kind: 'work.offer', target: 'work-item', from: 'offered', to: 'offered' });
  expect(facts.filter((f) => f.fact === 'transition')).toHaveLength(1);
});

it('names the target a refusal found: the WorkItem’s state, or the Mission’s', () => {
  const state = stateOf(offeredWork());
  const start = command(state, WORKER, 'work.start', { workItemId: WORK, ownershipEpoch: 1, leaseSeconds: 300 }, { workItemId: WORK });
  expect(refusalTarget(coreKinds, state, start)).toEqual({ target: 'work-item', state: 'offered' });
  const post = command(state, WORKER, 'message.post', { messageId: 'urn:test:m', conversationId: 'urn:x', content: 'hi' });
  expect(refusalTarget(coreKinds, state, post)).toEqual({ target: 'mission', state: 'active' });
  expect(refusalTarget(coreKinds, null, { ...post, kind: 'ext.missionweaveprotocol.identity.session_open' })).toEqual({ target: 'organization', state: 'none' });
});
