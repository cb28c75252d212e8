/**
 * Creating a root Mission (`mission.create`): the signing human becomes its MissionOwner.
 * The form asks for what the payload schema requires (schemas/payloads/mission.create.schema.json);
 * the page allocates the Mission, Group and main Conversation IDs, as the CLI does. The
 * Coordinator is picked by name from the Agents that may coordinate (an active Agent Card,
 * `GET /v1/agents`), so nobody types an identifier.
 */

import { submitCommand } from '../commands.js';
import { el, field } from '../dom.js';
import type { DirectoryAgent } from '../names.js';
import type { JsonObject } from '../panel.js';
import { currentApi, currentNames, guarded, showRefusal } from '../shell.js';

/** A week: a deadline the human then adjusts, rather than an empty required field. */
const DEFAULT_DEADLINE_DAYS = 7;

function defaultDeadline(): string {
  return new Date(Date.now() + DEFAULT_DEADLINE_DAYS * 86_400_000).toISOString().slice(0, 16);
}

function payloadOf(form: HTMLFormElement, id: string): JsonObject {
  const value = (name: string): string => String(new FormData(form).get(name) ?? '').trim();
  const budget: JsonObject = {};
  if (value('financialLimit') !== '') {
    budget['currency'] = value('currency') || 'EUR';
    budget['financialLimit'] = Number(value('financialLimit'));
  }
  if (value('modelTokenLimit') !== '') budget['modelTokenLimit'] = Number(value('modelTokenLimit'));
  const criteria = value('definitionOfDone').split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return {
    missionId: `urn:missionweave:mission:${id}`,
    groupId: `urn:missionweave:group:${id}`,
    mainConversationId: `urn:missionweave:conversation:${id}`,
    coordinatorId: value('coordinatorId'),
    title: value('title'),
    objective: value('objective'),
    definitionOfDone: criteria.map((description, index) => ({ criterionId: `criterion-${index + 1}`, description, evidenceRequired: ['human_review'] })),
    budget,
    // datetime-local has no zone: read it as UTC, as the label says.
    deadline: new Date(`${value('deadline')}${value('deadline').length === 16 ? ':00' : ''}Z`).toISOString(),
  };
}

/** The Coordinator picker: one option per Agent that may coordinate, by its name. */
function coordinatorPicker(candidates: readonly DirectoryAgent[]): HTMLElement {
  const select = el('select', { name: 'coordinatorId', required: true },
    el('option', { value: '' }, candidates.length === 0 ? 'No Agent can coordinate yet' : 'Choose an Agent'),
    ...candidates.map((agent) => el('option', { value: agent.agentId }, agent.displayName)));
  // One candidate is the obvious choice; with several, the human picks.
  if (candidates.length === 1) select.value = (candidates[0] as DirectoryAgent).agentId;
  const hint = candidates.length === 0
    ? 'The operator registers Agents with missionweave agent add <handle> --dir <dir>; reload this page afterwards.'
    : 'The Agent that plans the work and hands it out. Only Agents the Registry lists as active appear here.';
  return field('Coordinator', select, hint);
}

export async function renderCreateMission(root: HTMLElement): Promise<void> {
  const candidates = (await currentNames(true).catch(() => undefined))?.coordinatorCandidates() ?? [];
  const form = el('form', { class: 'card', 'aria-labelledby': 'create-title' },
    field('Title', el('input', { name: 'title', required: true, maxlength: 500 })),
    field('Objective', el('textarea', { name: 'objective', rows: 3, required: true, maxlength: 10000 })),
    field('Definition of done', el('textarea', { name: 'definitionOfDone', rows: 3, required: true }), 'One acceptance criterion per line.'),
    coordinatorPicker(candidates),
    el('div', { class: 'row' },
      field('Financial limit', el('input', { name: 'financialLimit', type: 'number', min: 0, step: 'any', value: '100' })),
      field('Currency', el('input', { name: 'currency', value: 'EUR', maxlength: 3, size: 4 })),
      field('Model token limit', el('input', { name: 'modelTokenLimit', type: 'number', min: 0, step: 1 }))),
    field('Deadline (UTC)', el('input', { name: 'deadline', type: 'datetime-local', required: true, value: defaultDeadline() })),
    el('button', { type: 'submit' }, 'Create Mission'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void guarded(async () => {
      const api = currentApi();
      if (api === undefined) return;
      const payload = payloadOf(form, crypto.randomUUID());
      const groupId = String(payload['groupId']);
      const result = await submitCommand(api, 'mission.create', payload, { groupId });
      if (!result.ok) return showRefusal(result.error);
      location.hash = `#/groups/${encodeURIComponent(groupId)}/timeline`;
    });
  });
  root.append(el('h1', { id: 'create-title' }, 'New Mission'), form);
}
