/**
 * The Mission's live timeline: every Event the human may read — Messages, transitions, who did
 * what — history first (`/events`, paged), then live from the shell's stream, filterable by kind
 * and by actor; and the directive box, which posts a Message to the Mission's main Conversation
 * (Messages never change state: a directive is advice the Coordinator reads, not authority).
 */

import { freshUrn } from '../base64url.js';
import { el, field, replace } from '../dom.js';
import { EVENTS_PAGE as PAGE, MAX_TIMELINE_EVENTS as MAX_SHOWN } from '../limits.js';
import type { Names } from '../names.js';
import type { ConsoleContext, JsonObject, Panel } from '../panel.js';
import { actorLabel, summary } from './eventText.js';


let stop: (() => void) | undefined;

function option(value: string, label = value): HTMLOptionElement {
  return el('option', { value }, label);
}

function refreshOptions(select: HTMLSelectElement, values: Iterable<string>, allLabel: string): void {
  const chosen = select.value;
  select.replaceChildren(option('', allLabel), ...[...new Set(values)].sort().map((v) => option(v)));
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : '';
}

function directiveForm(context: ConsoleContext, conversationId: () => string): HTMLElement {
  const content = el('textarea', { name: 'directive', rows: 2, required: true, maxlength: 4000 });
  const form = el('form', { class: 'directive', 'aria-label': 'Post a directive' },
    field('Directive to the Mission', content, 'Posted as a Message in the main Conversation; every member sees it.'),
    el('button', { type: 'submit' }, 'Post directive'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const text = content.value.trim();
      if (text === '') return;
      const result = await context.submit('message.post', { messageId: freshUrn(), conversationId: conversationId(), content: text });
      if (result.ok) content.value = '';
      else context.showRefusal(result.error);
    })();
  });
  return form;
}

async function history(context: ConsoleContext): Promise<JsonObject[]> {
  const events: JsonObject[] = [];
  for (let after = 0; ;) {
    const page = await context.get(`/v1/groups/${encodeURIComponent(context.groupId)}/events?after=${after}&limit=${PAGE}`);
    const batch = (page['events'] ?? []) as JsonObject[];
    events.push(...batch);
    const last = Number(batch.at(-1)?.['sequence'] ?? after);
    if (batch.length < PAGE || last <= after) return events.slice(-MAX_SHOWN);
    after = last;
  }
}

async function render(root: HTMLElement, context: ConsoleContext): Promise<void> {
  const view = await context.view();
  const names: Names = (await context.names()).withView(view);
  const actorOf = (event: JsonObject): string => actorLabel(event, names);
  const mainConversation = String((view['group'] as JsonObject | undefined)?.['mainConversationId'] ?? '');
  const events: JsonObject[] = [];
  const seen = new Set<number>();
  const kind = el('select', { name: 'kind' });
  const actor = el('select', { name: 'actor' });
  const list = el('ol', { class: 'timeline', 'aria-label': 'Events, newest first', 'aria-live': 'polite', reversed: true });

  const row = (event: JsonObject): HTMLElement => el('li', { class: `event kind-${String(event['kind']).replace(/[^a-z]+/g, '-')}`, 'data-sequence': String(event['sequence']) },
    el('div', { class: 'event-head' },
      el('span', { class: 'seq' }, `#${String(event['sequence'])}`),
      el('strong', { class: 'kind' }, String(event['kind'])),
      el('span', { class: 'actor' }, actorOf(event)),
      el('time', { datetime: String(event['occurredAt']) }, String(event['occurredAt']).replace('T', ' ').slice(0, 19))),
    el('p', { class: 'summary' }, summary(event, names)));

  const draw = (): void => {
    refreshOptions(kind, events.map((e) => String(e['kind'])), 'All kinds');
    refreshOptions(actor, events.map(actorOf), 'All actors');
    const shown = events.filter((e) => (kind.value === '' || e['kind'] === kind.value) && (actor.value === '' || actorOf(e) === actor.value));
    replace(list, ...shown.slice().reverse().map(row));
    if (shown.length === 0) list.append(el('li', { class: 'muted' }, 'No Events match.'));
  };
  const add = (event: JsonObject): boolean => {
    const sequence = Number(event['sequence']);
    if (seen.has(sequence)) return false;
    seen.add(sequence);
    events.push(event);
    events.sort((a, b) => Number(a['sequence']) - Number(b['sequence']));
    if (events.length > MAX_SHOWN) events.splice(0, events.length - MAX_SHOWN);
    return true;
  };

  kind.addEventListener('change', draw);
  actor.addEventListener('change', draw);
  root.append(
    directiveForm(context, () => mainConversation),
    el('div', { class: 'filters row' }, field('Kind', kind), field('Actor', actor)),
    list);
  // Live Events that arrive while the history loads are kept too; the sequence deduplicates.
  // A WorkItem's Events carry its contract, so a new one is named by its goal without a re-read.
  stop = context.onEvent((event) => {
    if (add(event)) draw();
  });
  for (const event of await history(context)) add(event);
  draw();
}

export const timelinePanel: Panel = {
  id: 'timeline',
  title: 'Timeline',
  render,
  dispose() {
    stop?.();
    stop = undefined;
  },
};
