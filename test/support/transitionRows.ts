/**
 * The transition rows of §7.1 (Mission) and §10.2 (WorkItem), in the spec's order, as the
 * conformance report matches recorded pipeline evidence against them (test/support/
 * conformanceReport.ts). `test/conformanceClaim.unit.test.ts` checks them against the spec's own
 * tables, read at run time.
 *
 * A row's positive evidence is an accepted Command of one of its kinds that moved its target from
 * one of `from` to one of `to`. Its negative evidence is a Command of one of its kinds refused by
 * the state machine (`INVALID_STATE_TRANSITION`, or `WORK_ALREADY_OWNED` for a WorkItem another
 * owner holds) while its target stood outside `from`: the table refusing what it does not permit
 * (§10.2: "Implementations MUST reject transitions not permitted by this table"). A row that is a
 * cause rather than a Command says what counts instead.
 */

import type { EvidenceLine } from '../../src/app/evidence/evidenceFile.js';

export type RowTarget = 'mission' | 'work-item' | 'work-proposal';

export interface TransitionRow {
  readonly section: '7.1' | '10.2';
  /** The row's cells as the spec words them. */
  readonly current: string;
  readonly trigger: string;
  readonly next: string;
  /** The Command kinds that carry the row (for a cause, the kinds that bring it about). */
  readonly kinds: readonly string[];
  readonly target: RowTarget;
  readonly from: readonly string[];
  readonly to: readonly string[];
  /** What counts instead of the default evidence, said in words for the report. */
  readonly positive?: { readonly says: string; readonly matches: (fact: EvidenceLine) => boolean };
  readonly negative?: { readonly says: string; readonly matches: (fact: EvidenceLine) => boolean };
}

const UNFINISHED = ['open', 'offered', 'queued', 'active', 'blocked', 'submitted'];
const NON_TERMINAL = ['active', 'awaiting_approval'];
const SETTLE = 'ext.missionweave.core.child_mission_settle';
/** The §19 codes with which the state machine refuses a transition its table does not permit. */
const STATE_CODES = ['INVALID_STATE_TRANSITION', 'WORK_ALREADY_OWNED'];

function refusedAs(kinds: readonly string[], reason: RegExp) {
  return (fact: EvidenceLine): boolean => fact.fact === 'refused' && kinds.includes(fact.kind) && reason.test(fact.reason);
}

export const TRANSITION_ROWS: readonly TransitionRow[] = [
  { section: '7.1', current: 'none', trigger: '`mission.create` with a Coordinator lease', next: '`active`', kinds: ['mission.create'], target: 'mission', from: ['none'], to: ['active'] },
  { section: '7.1', current: 'none', trigger: '`mission.create_follow_up` linked to an approved Mission', next: '`active`', kinds: ['mission.create_follow_up'], target: 'mission', from: ['none'], to: ['active'] },
  {
    section: '7.1',
    current: 'none',
    trigger: '`mission.create_child` linked to a parent WorkItem',
    next: '`active`',
    kinds: ['mission.create_child'],
    target: 'mission',
    from: ['none'],
    to: ['active'],
    negative: { says: 'refused for a parent WorkItem the table does not let become a child Mission', matches: (f) => f.fact === 'refused' && f.kind === 'mission.create_child' && f.code === 'INVALID_STATE_TRANSITION' },
  },
  { section: '7.1', current: '`active`', trigger: '`mission.submit_for_approval`', next: '`awaiting_approval`', kinds: ['mission.submit_for_approval'], target: 'mission', from: ['active'], to: ['awaiting_approval'] },
  { section: '7.1', current: '`awaiting_approval`', trigger: '`mission.request_changes`', next: '`active`', kinds: ['mission.request_changes'], target: 'mission', from: ['awaiting_approval'], to: ['active'] },
  { section: '7.1', current: '`awaiting_approval`', trigger: '`mission.approve`', next: '`approved`', kinds: ['mission.approve'], target: 'mission', from: ['awaiting_approval'], to: ['approved'] },
  { section: '7.1', current: 'non-terminal', trigger: '`mission.cancel` or parent-cancellation propagation', next: '`cancelled`', kinds: ['mission.cancel'], target: 'mission', from: NON_TERMINAL, to: ['cancelled'] },
  { section: '7.1', current: 'non-terminal', trigger: '`mission.terminate` or declared child-failure propagation', next: '`failed`', kinds: ['mission.terminate', SETTLE], target: 'mission', from: NON_TERMINAL, to: ['failed'] },
  {
    section: '10.2',
    current: 'none',
    trigger: '`work.propose`',
    next: 'open Work Proposal',
    kinds: ['work.propose'],
    target: 'work-proposal',
    from: ['none'],
    to: ['open'],
    negative: { says: 'refused for a WorkItem or proposal ID already in use', matches: refusedAs(['work.propose'], /taken|in-use|exists/) },
  },
  { section: '10.2', current: 'none or open Work Proposal', trigger: '`work.authorize`', next: '`open`', kinds: ['work.authorize'], target: 'work-item', from: ['none'], to: ['open'] },
  { section: '10.2', current: '`open`, `offered`, `queued`, `active`, `blocked`, or `failed`, with no live owner', trigger: '`work.offer`', next: '`offered`', kinds: ['work.offer'], target: 'work-item', from: ['open', 'offered', 'queued', 'active', 'blocked', 'failed'], to: ['offered'] },
  { section: '10.2', current: '`offered`', trigger: '`work.accept_offer`', next: '`queued`', kinds: ['work.accept_offer'], target: 'work-item', from: ['offered'], to: ['queued'] },
  {
    section: '10.2',
    current: '`offered`',
    trigger: 'offer expiry',
    next: '`offered`',
    kinds: ['work.accept_offer'],
    target: 'work-item',
    from: ['offered'],
    to: ['offered'],
    positive: { says: 'an acceptance of an expired offer refused (`WORK_OFFER_EXPIRED`), the WorkItem left `offered` with no Event', matches: (f) => f.fact === 'refused' && f.kind === 'work.accept_offer' && f.code === 'WORK_OFFER_EXPIRED' && f.state === 'offered' },
    negative: { says: 'an acceptance of a live offer accepted (`offered → queued`)', matches: (f) => f.fact === 'transition' && f.kind === 'work.accept_offer' && f.from === 'offered' && f.to === 'queued' },
  },
  { section: '10.2', current: '`queued`', trigger: '`approval.grant_execution` when required', next: '`queued`', kinds: ['approval.grant_execution'], target: 'work-item', from: ['queued'], to: ['queued'] },
  { section: '10.2', current: '`queued`', trigger: '`work.start`', next: '`active`', kinds: ['work.start'], target: 'work-item', from: ['queued'], to: ['active'] },
  { section: '10.2', current: '`active`', trigger: '`work.checkpoint`', next: '`queued`', kinds: ['work.checkpoint'], target: 'work-item', from: ['active'], to: ['queued'] },
  { section: '10.2', current: '`active`', trigger: '`work.block`', next: '`blocked`', kinds: ['work.block'], target: 'work-item', from: ['active'], to: ['blocked'] },
  { section: '10.2', current: '`blocked`', trigger: '`work.unblock`', next: '`queued` or `open`', kinds: ['work.unblock'], target: 'work-item', from: ['blocked'], to: ['queued', 'open'] },
  { section: '10.2', current: '`active`', trigger: '`work.submit`', next: '`submitted`', kinds: ['work.submit'], target: 'work-item', from: ['active'], to: ['submitted'] },
  { section: '10.2', current: '`submitted`', trigger: '`work.accept_result`', next: '`verified`', kinds: ['work.accept_result'], target: 'work-item', from: ['submitted'], to: ['verified'] },
  { section: '10.2', current: '`open`, `offered`, `queued`, `active`, `blocked`, or `submitted`', trigger: '`work.fail`', next: '`failed`', kinds: ['work.fail'], target: 'work-item', from: UNFINISHED, to: ['failed'] },
  { section: '10.2', current: '`open`, `offered`, `queued`, `active`, `blocked`, or `submitted`', trigger: '`work.cancel`', next: '`cancelled`', kinds: ['work.cancel'], target: 'work-item', from: UNFINISHED, to: ['cancelled'] },
  { section: '10.2', current: '`open`, `offered`, `queued`, `active`, or `blocked`', trigger: '`mission.create_child`', next: '`blocked`', kinds: ['mission.create_child'], target: 'work-item', from: ['open', 'offered', 'queued', 'active', 'blocked'], to: ['blocked'] },
  { section: '10.2', current: '`blocked`', trigger: 'linked child Mission approval', next: '`verified`', kinds: [SETTLE], target: 'work-item', from: ['blocked'], to: ['verified'] },
  { section: '10.2', current: '`blocked`', trigger: 'linked child Mission failure', next: '`blocked` or `failed`', kinds: [SETTLE], target: 'work-item', from: ['blocked'], to: ['blocked', 'failed'] },
  {
    section: '10.2',
    current: '`open`, `offered`, `queued`, `active`, `blocked`, or `submitted`',
    trigger: 'parent Mission failure or cancellation',
    next: '`failed` or `cancelled`',
    kinds: ['mission.cancel', 'mission.terminate'],
    target: 'work-item',
    from: UNFINISHED,
    to: ['failed', 'cancelled'],
    negative: { says: 'a cancellation or termination of a Mission already ended refused: nothing propagates twice', matches: (f) => f.fact === 'refused' && ['mission.cancel', 'mission.terminate'].includes(f.kind) && f.target === 'mission' && !NON_TERMINAL.includes(f.state) && f.state !== 'none' },
  },
];

/** The default evidence of a row (see the module comment). */
export function positiveFor(row: TransitionRow, fact: EvidenceLine): boolean {
  if (row.positive !== undefined) return row.positive.matches(fact);
  return fact.fact === 'transition' && row.kinds.includes(fact.kind) && fact.target === row.target && row.from.includes(fact.from) && row.to.includes(fact.to);
}

export function negativeFor(row: TransitionRow, fact: EvidenceLine): boolean {
  if (row.negative !== undefined) return row.negative.matches(fact);
  return fact.fact === 'refused' && row.kinds.includes(fact.kind) && STATE_CODES.includes(fact.code) && fact.target === row.target && !row.from.includes(fact.state);
}
