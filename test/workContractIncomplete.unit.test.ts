/**
 * §19 `WORK_CONTRACT_INCOMPLETE`: a `work.propose` / `work.authorize` payload whose Work Contract
 * lacks a required member (§10.1) is told so, apart from every other schema failure.
 */

import { describe, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { PAYLOAD_EXAMPLES } from './support/payloadExamples.js';

type Payload = Record<string, unknown> & { contract: Record<string, unknown> & { retryPolicy: Record<string, unknown>; requiredDeliverables: Record<string, unknown>[] } };

function example(kind: string): Payload {
  return structuredClone(PAYLOAD_EXAMPLES[kind]) as Payload;
}

function check(kind: string, mutate: (p: Payload) => void) {
  const payload = example(kind);
  mutate(payload);
  return schemaRegistry().validatePayload(kind, payload);
}

describe.each(['work.propose', 'work.authorize'])('%s', (kind) => {
  it('accepts the complete example', () => {
    expect(check(kind, () => undefined)).toEqual({ ok: true });
  });

  it.each<[string, (p: Payload) => void]>([
    ['goal', (p) => delete p.contract['goal']],
    ['acceptanceCriteria', (p) => delete p.contract['acceptanceCriteria']],
    ['budget', (p) => delete p.contract['budget']],
    ['executionApproval', (p) => delete p.contract['executionApproval']],
    ['retryPolicy.maxAttempts', (p) => delete p.contract.retryPolicy['maxAttempts']],
    ['requiredDeliverables[0].schema', (p) => delete p.contract.requiredDeliverables[0]!['schema']],
    ['the whole contract', (p) => delete (p as Record<string, unknown>)['contract']],
  ])('marks a contract without %s as incomplete', (_member, mutate) => {
    const result = check(kind, mutate);
    expect(result).toMatchObject({ ok: false, contractIncomplete: true });
  });

  it.each<[string, (p: Payload) => void]>([
    ['a malformed goal', (p) => (p.contract['goal'] = '')],
    ['an unknown contract member', (p) => (p.contract['exclusive'] = true)],
    ['an empty acceptance criteria list', (p) => (p.contract['acceptanceCriteria'] = [])],
    ['another missing payload member', (p) => delete (p as Record<string, unknown>)[kind === 'work.propose' ? 'proposalId' : 'workItemId']],
  ])('leaves %s a plain schema failure', (_what, mutate) => {
    const result = check(kind, mutate);
    expect(result?.ok).toBe(false);
    expect(result).not.toHaveProperty('contractIncomplete');
  });
});

it('marks nothing for kinds without a Work Contract', () => {
  const result = schemaRegistry().validatePayload('message.post', { messageId: 'urn:x:m', conversationId: 'urn:x:c' });
  expect(result?.ok).toBe(false);
  expect(result).not.toHaveProperty('contractIncomplete');
});
