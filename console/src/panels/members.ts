/**
 * Members and presence: every Membership the viewer may see with its role, state and
 * Membership Epoch, whether its Agent is connected, and the two Membership Commands —
 * `membership.change` (grant, change the role, activate a provisional one) and `membership.end`.
 *
 * Each Command carries the Membership Epoch it was decided on as `expectedRevision` (the kind's
 * target; 0 for a Principal with no Membership yet), so a change made meanwhile by someone else
 * is refused as REVISION_CONFLICT rather than silently overwritten.
 */
import { roleName, stateName, type DirectoryAgent, type Names } from '../names.js';
import type { JsonObject } from '../panel.js';
import { button, confirmAction, field, h, select, table, type ElementProps } from './ui.js';
import { DASH, bool, dash, list, num, obj, principalOf, str, when } from './viewData.js';
import { viewPanel, type PanelTools } from './viewPanel.js';

/** Roles a Membership Command may give: mission_owner and coordinator belong to their holder. */
const GRANTABLE_ROLES = ['worker', 'reviewer', 'observer', 'work_delegate'] as const;
const ROLE_OPTIONS = GRANTABLE_ROLES.map((role) => ({ value: role, label: roleName(role) }));

/** Roles whose holders may send Membership Commands (kind authority: mission-owner, coordinator). */
const MANAGING_ROLES: ReadonlySet<string> = new Set(['mission_owner', 'coordinator']);

/** An identifier is an absolute URI (common.schema.json `identifier`): a scheme, then a colon. */
const IDENTIFIER_START = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
/** A handle as `missionweave human add <handle>` takes it; its human ID is `urn:missionweave:human:<handle>`. */
const HANDLE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function presenceText(member: JsonObject | undefined, presence: ReadonlyMap<string, JsonObject>): string {
  if (str(member, 'type') !== 'agent') return DASH;
  const line = presence.get(str(member, 'id') ?? '');
  if (line === undefined) return DASH;
  if (line['connected'] !== true) return 'not connected';
  const record = obj(line, 'record');
  const status = str(record, 'status') ?? 'connected';
  const capacity = obj(record, 'capacity');
  const slots = num(capacity, 'availableSlots');
  const max = num(capacity, 'maxSlots');
  return slots === undefined || max === undefined ? status : `${status}, ${slots}/${max} slots free`;
}

function isAuthorityHolder(view: JsonObject, member: JsonObject | undefined): boolean {
  const mission = obj(view, 'mission');
  const owner = obj(mission, 'missionOwner');
  const coordinatorId = str(obj(mission, 'coordinator'), 'agentId');
  const type = str(member, 'type');
  const id = str(member, 'id');
  return (type === str(owner, 'type') && id === str(owner, 'id')) || (type === 'agent' && id === coordinatorId);
}

function actionsFor(membership: JsonObject, view: JsonObject, tools: PanelTools, names: Names): Node {
  const member = obj(membership, 'member');
  const principal = principalOf(member);
  if (principal === undefined) return document.createTextNode(DASH);
  if (isAuthorityHolder(view, member)) return h('span', { className: 'mw-muted' }, 'Fixed: the MissionOwner and the Coordinator keep their role');
  const epoch = num(membership, 'membershipEpoch');
  const state = str(membership, 'state');
  const who = names.principal(member);
  const role = select(ROLE_OPTIONS, str(membership, 'role'));
  role.setAttribute('aria-label', `Role for ${who}`);
  const changeLabel = state === 'ended' ? 'Grant again' : state === 'provisional' ? 'Activate' : 'Change role';
  const change = button(changeLabel, () => {
    void tools.act('membership.change', { principal, roles: [role.value] }, { expectedRevision: epoch ?? 0 });
  });
  change.setAttribute('aria-label', `${changeLabel}: ${who}`);
  const controls: Node[] = [role, change];
  if (state !== 'ended' && epoch !== undefined) {
    const end = button('End…', () => {
      void confirmAction(`End the Membership of ${who}?`, [`${who} can no longer act in this Mission: anything signed under its current Membership is refused.`], 'End Membership').then(
        (yes) => yes && tools.act('membership.end', { principal }, { expectedRevision: epoch }),
      );
    }, { className: 'mw-button mw-danger' });
    end.setAttribute('aria-label', `End Membership: ${who}`);
    controls.push(end);
  }
  return h('div', { className: 'mw-row-actions' }, ...controls);
}

/**
 * Adds a member: an Agent picked by name from the directory (those not yet members), or a human by
 * the handle the operator gave them (or their full ID).
 */
function addMemberForm(tools: PanelTools, agents: readonly DirectoryAgent[]): HTMLElement {
  const type = select([
    { value: 'agent', label: 'Agent' },
    { value: 'human', label: 'Human' },
  ]);
  const agent = select([{ value: '', label: agents.length === 0 ? 'No other Agent is registered' : 'Choose an Agent' }, ...agents.map((a) => ({ value: a.agentId, label: a.displayName }))]);
  const human = h('input', { attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'bob' } });
  const agentField = field('Agent', agent);
  const humanField = field('Human handle', human);
  humanField.hidden = true;
  type.addEventListener('change', () => {
    agentField.hidden = type.value !== 'agent';
    humanField.hidden = type.value !== 'human';
  });
  const role = select(ROLE_OPTIONS, 'worker');
  const problem = h('p', { className: 'mw-hint', attrs: { 'aria-live': 'polite' } });
  const add = button('Add member', () => {
    const typed = human.value.trim();
    const id = type.value === 'agent' ? agent.value : HANDLE.test(typed) ? `urn:missionweave:human:${typed}` : typed;
    if (type.value === 'agent' ? id === '' : !HANDLE.test(typed) && !IDENTIFIER_START.test(typed)) {
      problem.textContent = type.value === 'agent' ? 'Choose the Agent to add.' : 'Give the handle the operator used in missionweave human add (letters, digits, . _ -), or the full human ID.';
      (type.value === 'agent' ? agent : human).focus();
      return;
    }
    problem.textContent = '';
    // expectedRevision 0: the Principal has no Membership yet; if one appeared meanwhile, say so.
    void tools.act('membership.change', { principal: { type: type.value, id }, roles: [role.value] }, { expectedRevision: 0 });
  });
  const props: ElementProps = { className: 'mw-form', attrs: { 'aria-label': 'Add a member' } };
  const form = h('form', props, h('h3', {}, 'Add a member'), h('div', { className: 'mw-form-row' }, field('Kind', type), agentField, humanField, field('Role', role), add), problem);
  // Enter in a field submits the form: act as the button does instead of navigating.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    add.click();
  });
  return form;
}

export function buildMembers(view: JsonObject, tools: PanelTools, names: Names): Node[] {
  const presence = new Map(list(view, 'presence').map((line) => [str(line, 'agentId') ?? '', line] as const));
  const viewer = obj(view, 'viewer');
  const manages = MANAGING_ROLES.has(str(viewer, 'role') ?? '');
  const memberships = list(view, 'memberships');
  const headers = ['Member', 'Role', 'State', 'Epoch', 'Since', 'Presence', ...(manages ? ['Actions'] : [])];
  const rows = memberships.map((membership) => {
    const member = obj(membership, 'member');
    const cells: Node[] = [
      h('span', { className: 'mw-member' }, names.principal(member), h('span', { className: 'mw-muted' }, str(member, 'type') === 'human' ? ' (human)' : ' (Agent)')),
      document.createTextNode(roleName(str(membership, 'role'))),
      h('span', { className: `mw-badge mw-membership-${str(membership, 'state') ?? 'unknown'}` }, stateName(str(membership, 'state'))),
      document.createTextNode(dash(num(membership, 'membershipEpoch'))),
      document.createTextNode(when(str(membership, 'activatedAt') ?? str(membership, 'grantedAt'))),
      document.createTextNode(presenceText(member, presence)),
    ];
    if (manages) cells.push(actionsFor(membership, view, tools, names));
    return cells;
  });
  const nodes: Node[] = [table(`${memberships.length} Membership(s)`, headers, rows)];
  if (bool(viewer, 'limited') === true) {
    nodes.unshift(h('p', { className: 'mw-hint' }, 'You joined late, so you see only your own Membership.'));
  }
  const members = new Set(memberships.map((m) => str(obj(m, 'member'), 'id')));
  nodes.push(manages ? addMemberForm(tools, names.coordinatorCandidates().filter((a) => !members.has(a.agentId))) : h('p', { className: 'mw-muted' }, 'Read-only: the MissionOwner or the Coordinator changes Memberships.'));
  return nodes;
}

export const membersPanel = viewPanel({
  id: 'members',
  title: 'Members',
  subtitle: 'Who takes part in the Mission, in which role, and who is connected.',
  follow: 'notice',
  build: async (view, context, tools) => buildMembers(view, tools, (await context.names()).withView(view)),
});
