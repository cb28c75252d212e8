/**
 * The MissionOwner's interventions: cancel the Mission, appoint a replacement Coordinator (picked
 * by name among the Agents that may coordinate) and redact a Message. Each asks for confirmation first, because none can be
 * undone: cancellation is terminal, a replaced Coordinator's epoch stays fenced, a redaction is
 * final.
 *
 * The two Mission Commands carry the Mission revision the human decided on as `expectedRevision`
 * (both kinds target it): if the Mission moved meanwhile — submitted, approved, another
 * intervention — the Authority refuses with REVISION_CONFLICT instead of acting on a state the
 * human never saw. A redaction does not: its Conversation's revision moves with every Message
 * posted, which would refuse it in any live Conversation, and the Message it names is fixed.
 */
import type { Names } from '../names.js';
import type { ConsoleContext, JsonObject } from '../panel.js';
import { LEASE_SECONDS, REASON_MAX_LENGTH } from './panelLimits.js';
import { loadRecentMessages, type RecentMessage } from './recentMessages.js';
import { button, confirmAction, field, h, refusalBox, select, table, uniqueId } from './ui.js';
import { DASH, dash, list, num, obj, str, when } from './viewData.js';
import { viewPanel, type PanelTools } from './viewPanel.js';

const TERMINAL: ReadonlySet<string> = new Set(['approved', 'cancelled', 'failed']);

function reasonInput(): HTMLTextAreaElement {
  return h('textarea', { attrs: { rows: '2', maxlength: String(REASON_MAX_LENGTH), required: '' } });
}

function section(title: string, ...children: Node[]): HTMLElement {
  const id = uniqueId('mw-intervention');
  return h('section', { className: 'mw-intervention', attrs: { 'aria-labelledby': id } }, h('h3', { attrs: { id } }, title), ...children);
}

/** Refuses an empty reason in the page: the schema requires one, and it is the audit record. */
function needReason(input: HTMLTextAreaElement, problem: HTMLElement): string | undefined {
  const reason = input.value.trim();
  problem.textContent = reason === '' ? 'Give a reason: it is recorded with the Event.' : '';
  if (reason === '') input.focus();
  return reason === '' ? undefined : reason;
}

function cancelSection(mission: JsonObject | undefined, title: string, tools: PanelTools): HTMLElement {
  const revision = num(mission, 'revision');
  const state = str(mission, 'state');
  const reason = reasonInput();
  const problem = h('p', { className: 'mw-hint', attrs: { 'aria-live': 'polite' } });
  const closed = state === undefined || TERMINAL.has(state) || revision === undefined;
  const press = button('Cancel Mission…', () => {
    const text = needReason(reason, problem);
    if (text === undefined || revision === undefined) return;
    void confirmAction(
      `Cancel “${title}”?`,
      [
        'Its unfinished WorkItems are cancelled and the Agents lose their hold on them. This cannot be undone.',
        `Decided on Mission revision ${revision}: if the Mission changed since, the Authority refuses it.`,
      ],
      'Cancel Mission',
    ).then((yes) => yes && tools.act('mission.cancel', { reason: text }, { expectedRevision: revision }));
  }, { className: 'mw-button mw-danger', disabled: closed });
  return section(
    'Cancel the Mission',
    closed ? h('p', { className: 'mw-muted' }, `The Mission is ${dash(state)}: it can no longer be cancelled.`) : h('p', {}, `Ends the Mission at revision ${revision}.`),
    field('Reason for cancelling', reason),
    problem,
    h('div', { className: 'mw-actions' }, press),
  );
}

function coordinatorSection(view: JsonObject, mission: JsonObject | undefined, tools: PanelTools, names: Names): HTMLElement {
  const revision = num(mission, 'revision');
  const coordinator = obj(mission, 'coordinator');
  const current = str(coordinator, 'agentId');
  const lease = obj(view, 'coordinatorLease');
  const members = new Set(list(view, 'memberships').map((m) => str(obj(m, 'member'), 'id')));
  // Members of the Group first: they already know the Mission.
  const candidates = names.coordinatorCandidates().filter((a) => a.agentId !== current).sort((a, b) => Number(members.has(b.agentId)) - Number(members.has(a.agentId)));
  const choice = select([{ value: '', label: candidates.length === 0 ? 'No other Agent can coordinate' : 'Choose an Agent' }, ...candidates.map((a) => ({ value: a.agentId, label: members.has(a.agentId) ? `${a.displayName} (member)` : a.displayName }))], candidates[0]?.agentId ?? '');
  const seconds = h('input', { attrs: { type: 'number', min: String(LEASE_SECONDS.min), max: String(LEASE_SECONDS.max), step: '1', value: String(LEASE_SECONDS.default), inputmode: 'numeric' } });
  const problem = h('p', { className: 'mw-hint', attrs: { 'aria-live': 'polite' } });
  const terminal = TERMINAL.has(str(mission, 'state') ?? '') || revision === undefined;
  const press = button('Appoint Coordinator…', () => {
    const agentId = choice.value;
    const leaseSeconds = Number(seconds.value);
    if (agentId === '' || !Number.isInteger(leaseSeconds) || leaseSeconds < LEASE_SECONDS.min || leaseSeconds > LEASE_SECONDS.max) {
      problem.textContent = agentId === '' ? 'Choose the Agent to appoint.' : `The lease is a whole number of seconds, ${LEASE_SECONDS.min} to ${LEASE_SECONDS.max}.`;
      return;
    }
    problem.textContent = '';
    if (revision === undefined) return;
    void confirmAction(
      `Appoint ${names.of(agentId)} as Coordinator?`,
      [`${names.of(current)} stops coordinating at once: anything it sends as Coordinator from now on is refused.`, `Decided on Mission revision ${revision}.`],
      'Appoint Coordinator',
    ).then((yes) => yes && tools.act('mission.assign_coordinator', { coordinatorId: agentId, leaseSeconds }, { expectedRevision: revision }));
  }, { disabled: terminal });
  return section(
    'Reassign the Coordinator',
    h('p', {}, `Now: ${names.of(current)}, holding the role until ${when(str(lease, 'expiresAt'))} (${dash(str(lease, 'state'))}, renewed while it works).`),
    h('div', { className: 'mw-form-row' }, field('New Coordinator', choice), field('Lease (seconds)', seconds)),
    problem,
    h('div', { className: 'mw-actions' }, press),
  );
}

function messageChooser(messages: readonly RecentMessage[], chosen: HTMLInputElement, titles: ReadonlyMap<string, string>, names: Names): Node {
  if (messages.length === 0) return h('p', { className: 'mw-empty' }, 'No unredacted Message among the recent Events.');
  const name = uniqueId('mw-message');
  const rows = messages.map((message) => {
    const radio = h('input', { attrs: { type: 'radio', name, value: message.messageId, 'aria-label': `Choose the Message of ${names.principal(message.author)}: ${message.excerpt}` } });
    radio.addEventListener('change', () => {
      chosen.value = message.messageId;
    });
    return [radio, names.principal(message.author), titles.get(message.conversationId ?? '') ?? DASH, when(message.committedAt), h('span', { className: 'mw-excerpt' }, message.excerpt === '' ? DASH : message.excerpt)];
  });
  return table('Recent Messages (newest first)', ['Choose', 'Author', 'Conversation', 'Posted', 'Text'], rows);
}

function redactSection(view: JsonObject, context: ConsoleContext, tools: PanelTools, names: Names): HTMLElement {
  const titles = new Map(list(view, 'conversations').map((c) => [str(c, 'conversationId') ?? '', str(c, 'title') ?? DASH] as const));
  const chosen = h('input', { attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false' } });
  const reason = reasonInput();
  const problem = h('p', { className: 'mw-hint', attrs: { 'aria-live': 'polite' } });
  const chooser = h('div', { className: 'mw-chooser', attrs: { 'aria-busy': 'true' } }, h('p', { className: 'mw-pending' }, 'Loading recent Messages…'));
  let messages: readonly RecentMessage[] = [];
  loadRecentMessages(context, num(view, 'lastSequence') ?? 0).then(
    (found) => {
      messages = found;
      chooser.replaceChildren(messageChooser(found, chosen, titles, names));
    },
    (error: unknown) => {
      const refusal = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string; message: string }) : { code: 'INTERNAL_ERROR', message: String(error) };
      chooser.replaceChildren(refusalBox(refusal), h('p', { className: 'mw-hint' }, 'You can still give the Message by its ID (below).'));
    },
  ).finally(() => chooser.setAttribute('aria-busy', 'false'));
  const press = button('Redact Message…', () => {
    const messageId = chosen.value.trim();
    if (messageId === '') {
      problem.textContent = 'Choose a Message above.';
      return;
    }
    const text = needReason(reason, problem);
    if (text === undefined) return;
    const message = messages.find((m) => m.messageId === messageId);
    const conversationId = message?.conversationId;
    const question = message === undefined ? 'Redact the Message with this ID?' : `Redact the Message of ${names.principal(message.author)}: “${message.excerpt}”?`;
    void confirmAction(question, ['Its content stops being shown to anyone; that it was redacted, and why, stays in the history. This is final.'], 'Redact Message').then((yes) => {
      if (!yes) return false;
      const payload = { amendmentId: `urn:uuid:${crypto.randomUUID()}`, messageId, reason: text };
      return tools.act('message.redact', payload, conversationId === undefined ? {} : { conversationId });
    });
  }, { className: 'mw-button mw-danger' });
  // An older Message than the chooser lists is named by its ID, tucked away: the common case is a click above.
  const byId = h('details', { className: 'mw-by-id' }, h('summary', {}, 'A Message not listed above'), field('Message ID', chosen));
  return section('Redact a Message', chooser, byId, field('Policy reason for the redaction', reason), problem, h('div', { className: 'mw-actions' }, press));
}

export function buildInterventions(view: JsonObject, context: ConsoleContext, tools: PanelTools, names: Names): Node[] {
  const mission = obj(view, 'mission');
  const title = str(obj(view, 'missionNotes'), 'title') ?? str(mission, 'objective') ?? DASH;
  const nodes: Node[] = [h('p', { className: 'mw-summary' }, `Mission “${title}”: ${dash(str(mission, 'state')).replace(/_/g, ' ')}, revision ${dash(num(mission, 'revision'))}.`)];
  if (str(obj(view, 'viewer'), 'role') !== 'mission_owner') {
    nodes.push(h('p', { className: 'mw-hint' }, 'These are the MissionOwner’s actions (the Coordinator may also redact): from another role the Authority refuses them.'));
  }
  nodes.push(cancelSection(mission, title, tools), coordinatorSection(view, mission, tools, names), redactSection(view, context, tools, names));
  return nodes;
}

export const interventionsPanel = viewPanel({
  id: 'interventions',
  title: 'Interventions',
  subtitle: 'Cancel the Mission, reassign the Coordinator, redact a Message.',
  follow: 'notice',
  build: async (view, context, tools) => buildInterventions(view, context, tools, (await context.names()).withView(view)),
});
