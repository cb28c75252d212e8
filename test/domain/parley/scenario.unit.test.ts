/**
 * The scenario at the domain level: two models and one human hold a thread to a confirmed
 * close, with a self-reply refused, a proposal confirmed by the human, and a verified claim
 * refuted with a proof — every step a Command through the Group's kinds with the Parley profile.
 */

import { describe, expect, it } from 'vitest';
import { rightsOf } from '../../../src/domain/parley/authority.js';
import { inbox, stateLog, threadTree } from '../../../src/domain/parley/reads.js';
import { CLAIM, GROUP_EVENTS, OWNER, REVIEWER, T0, W1, WORKER, WORKER2, at, say, sliceOf, talk, when } from './parleyFixtures.js';

describe('a Parley session between two models and a human', () => {
  it('reaches a confirmed close through proposals, and a verified claim falls to a proof', () => {
    const opened = talk(GROUP_EVENTS, [WORKER, say('ask', 'Which index for orders?', {}, 'planner')]);
    // The model cannot answer its own question under the same extension …
    when(opened, WORKER, say('answer', 'btree', { parent: 'msg_1' }, 'planner')).thenFails('INVALID_COMMAND', 'self_reply');
    const talked = talk(
      opened,
      [WORKER2, say('answer', 'btree on (customer, created_at)', { parent: 'msg_1' })],
      [WORKER, say('decide', 'btree it is', { thread: 1, parent: 'msg_2' }, 'planner')],
    );
    // … the other model's decision is a proposal, awaiting the human in its inbox.
    const owner = { identity: OWNER.id, rights: rightsOf({ member: OWNER, role: 'mission_owner', state: 'active' }) };
    const waiting = inbox(sliceOf(talked), owner);
    expect('threads' in waiting && waiting.threads.map((t) => [t.key, t.state, t.confirmed])).toEqual([['th_1', 'decided', false]]);
    const closed = talk(
      talked,
      [OWNER, say('confirm', 'Agreed.', { thread: 1 }), undefined, at(30)],
      [WORKER, say('close', 'Shipping it.', { thread: 1 }, 'planner'), undefined, at(40)],
      [OWNER, say('close', 'Closed.', { thread: 1 }), undefined, at(50)],
    );
    expect(sliceOf(closed).threads['1']).toMatchObject({ state: 'closed', stateConfirmedAt: at(50) });
    expect(stateLog(sliceOf(closed), 1)?.map((c) => [c.to, c.origin, c.confirmedAt])).toEqual([
      ['answered', 'llm', null],
      ['decided', 'llm', null],
      ['decided', 'user', at(30)],
      ['closed', 'llm', null],
      ['closed', 'user', at(50)],
    ]);
    when(closed, WORKER2, say('answer', 'wait', { parent: 'msg_1' })).thenFails('INVALID_STATE_TRANSITION', 'thread_closed');
    expect(threadTree(sliceOf(closed), 1)?.[0]?.replies.map((n) => n.message.number)).toEqual([2]);

    const claimed = talk(
      closed,
      [WORKER, { act: 'assert', body: 'The btree halves p99.', from: { extension: 'planner' } }, CLAIM],
      [WORKER2, { act: 'attest', claim: 'cl_1', body: 'Seen it.', from: { extension: 'main' } }, CLAIM],
      [REVIEWER, { act: 'verify', claim: 'cl_1', body: 'Sealed.', from: { extension: 'main' } }, CLAIM],
    );
    expect(sliceOf(claimed).claims['cl_1']?.status).toBe('verified');
    const refuted = talk(claimed, [OWNER, { act: 'refute', claim: 'cl_1', body: 'Not on the full data.', proofs: [{ kind: 'artifact', ref: 'sha256:abc' }], from: { extension: 'console' } }, CLAIM]);
    expect(sliceOf(refuted).claims['cl_1']).toMatchObject({ status: 'refuted', author: { identity: W1 }, refutation: { at: T0 } });
  });
});
