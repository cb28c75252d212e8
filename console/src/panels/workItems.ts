/**
 * The WorkItems board: one column per WorkItem state, each card with its owner, Ownership
 * Epoch, Execution Lease expiry and deadline — what a MissionOwner scans to see who holds what
 * and what is late. Read-only; it rebuilds as Events arrive.
 */
import type { Names } from '../names.js';
import type { JsonObject } from '../panel.js';
import { h } from './ui.js';
import { DASH, bool, dash, list, num, obj, str, when } from './viewData.js';
import { viewPanel } from './viewPanel.js';

/** The WorkItem states in lifecycle order, with the label of their column. */
export const WORK_ITEM_STATES = [
  ['open', 'Open'],
  ['offered', 'Offered'],
  ['queued', 'Queued'],
  ['active', 'Active'],
  ['blocked', 'Blocked'],
  ['submitted', 'Submitted'],
  ['verified', 'Verified'],
  ['failed', 'Failed'],
  ['cancelled', 'Cancelled'],
] as const;

const FINISHED: ReadonlySet<string> = new Set(['verified', 'failed', 'cancelled']);

function isPast(timestamp: string | undefined, now: number): boolean {
  if (timestamp === undefined) return false;
  const at = Date.parse(timestamp);
  return !Number.isNaN(at) && at < now;
}

/** The Execution Lease as the card shows it: its expiry, or why it no longer counts. */
function leaseText(lease: JsonObject | undefined, now: number): string {
  if (lease === undefined) return DASH;
  const expiresAt = str(lease, 'expiresAt');
  const state = str(lease, 'state') ?? 'active';
  if (state !== 'active') return `${state} (${when(expiresAt)})`;
  return isPast(expiresAt, now) ? `expired ${when(expiresAt)}` : `until ${when(expiresAt)}`;
}

function fact(term: string, value: string, flag?: string): Node[] {
  const definition = h('dd', {}, value);
  if (flag !== undefined) definition.append(' ', h('span', { className: 'mw-flag' }, flag));
  return [h('dt', {}, term), definition];
}

function card(item: JsonObject, now: number, names: Names): HTMLElement {
  const state = str(item, 'state') ?? '';
  const owner = obj(item, 'owner');
  const deadline = str(item, 'deadline');
  const late = isPast(deadline, now) && !FINISHED.has(state);
  const pause = obj(item, 'budgetPause');
  const urgency = str(item, 'urgency');
  const goal = str(item, 'goal') ?? names.workItem(str(item, 'workItemId'));
  return h(
    'li',
    { className: `mw-card${late ? ' mw-late' : ''}` },
    h(
      'article',
      { attrs: { 'aria-label': goal } },
      h('h4', { className: 'mw-card-title' }, goal),
      urgency === undefined ? null : h('span', { className: `mw-badge mw-urgency-${urgency}` }, urgency),
      h(
        'dl',
        { className: 'mw-facts' },
        ...fact('Owner', owner === undefined ? DASH : names.of(str(owner, 'agentId'))),
        ...fact('Ownership epoch', dash(num(owner, 'ownershipEpoch'))),
        ...fact('Execution lease', leaseText(obj(item, 'executionLease'), now)),
        ...fact('Deadline', when(deadline), late ? 'overdue' : undefined),
        ...(pause === undefined ? [] : fact('Budget', `paused on ${dash(str(pause, 'dimension'))}`)),
        ...(bool(item, 'exclusive') === false ? fact('Ownership', 'shared') : []),
      ),
    ),
  );
}

function column(state: string, label: string, items: readonly JsonObject[], now: number, names: Names): HTMLElement {
  const headingId = `mw-board-${state}`;
  return h(
    'section',
    { className: `mw-column mw-state-${state}`, attrs: { 'aria-labelledby': headingId, 'data-state': state } },
    h('h3', { attrs: { id: headingId } }, `${label} `, h('span', { className: 'mw-count' }, String(items.length))),
    items.length === 0 ? h('p', { className: 'mw-empty' }, 'None') : h('ul', { className: 'mw-cards' }, ...items.map((item) => card(item, now, names))),
  );
}

export function buildBoard(view: JsonObject, now: number, names: Names): Node[] {
  const items = list(view, 'workItems');
  const known = new Set<string>(WORK_ITEM_STATES.map(([state]) => state));
  const columns: Node[] = WORK_ITEM_STATES.map(([state, label]) => column(state, label, items.filter((item) => str(item, 'state') === state), now, names));
  // A state this console does not know (a newer Authority) still shows, rather than vanishing.
  const other = items.filter((item) => !known.has(str(item, 'state') ?? ''));
  if (other.length > 0) columns.push(column('other', 'Other', other, now, names));
  const summary = h('p', { className: 'mw-summary' }, `${items.length} WorkItem(s).`);
  return [summary, h('div', { className: 'mw-board' }, ...columns)];
}

export const workItemsPanel = viewPanel({
  id: 'workitems',
  title: 'WorkItems',
  subtitle: 'The work by state: who holds it, until when, and what is late.',
  follow: 'rebuild',
  build: async (view, context) => buildBoard(view, Date.now(), (await context.names()).withView(view)),
});
