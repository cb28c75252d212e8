/**
 * Members and presence (§8, §6.2): every Membership the viewer may see with its role, state and
 * Membership Epoch, whether its Agent is connected, and the two Membership Commands —
 * `membership.change` (grant, change the role, activate a provisional one) and `membership.end`.
 *
 * Each Command carries the Membership Epoch it was decided on as `expectedRevision` (the kind's
 * target; 0 for a Principal with no Membership yet), so a change made meanwhile by someone else
 * is refused as REVISION_CONFLICT rather than silently overwritten.
 */
import type { JsonObject } from '../panel.js';
import { button, confirmAction, field, h, select, table, type ElementProps } from './ui.js';
import { DASH, bool, dash, list, num, obj, principalOf, principalText, str, when } from './viewData.js';
import { viewPanel, type PanelTools } from './viewPanel.js';

/** Roles a Membership Command may give: mission_owner and coordinator belong to their holder (§8). */
const GRANTABLE_ROLES = ['worker', 'reviewer', 'observer', 'work_delegate'] as const;
const ROLE_OPTIONS = GRANTABLE_ROLES.map((role) => ({ value: role, label: role.replace('_', ' ') }));

/** Roles whose holders may send Membership Commands (kind authority: mission-owner, coordinator). */
const MANAGING_ROLES: ReadonlySet<string> = new Set(['mission_owner', 'coordinator']);

/** An identifier is an absolute URI (common.schema.json `identifier`): a scheme, then a colon. */
const IDENTIFIER_START = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

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

function actionsFor(membership: JsonObject, view: JsonObject, tools: PanelTools): Node {
  const member = obj(membership, 'member');
  const principal = principalOf(member);
  if (principal === undefined) return document.createTextNode(DASH);
  if (isAuthorityHolder(view, member)) return h('span', { className: 'mw-muted' }, 'Fixed: MissionOwner and Coordinator keep their role (§8)');
  const epoch = num(membership, 'membershipEpoch');
  const state = str(membership, 'state');
  const who = principalText(member);
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
      void confirmAction(`End the Membership of ${who}?`, [`Its Membership Epoch ${epoch} is fenced: Commands it signed under it are refused (§8).`], 'End Membership').then(
        (yes) => yes && tools.act('membership.end', { principal }, { expectedRevision: epoch }),
      );
    }, { className: 'mw-button mw-danger' });
    end.setAttribute('aria-label', `End Membership: ${who}`);
    controls.push(end);
  }
  return h('div', { className: 'mw-row-actions' }, ...controls);
}

function addMemberForm(tools: PanelTools): HTMLElement {
  const type = select([
    { value: 'agent', label: 'Agent' },
    { value: 'human', label: 'Human' },
  ]);
  const id = h('input', { attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'urn:…' } });
  const role = select(ROLE_OPTIONS, 'worker');
  const problem = h('p', { className: 'mw-hint', attrs: { 'aria-live': 'polite' } });
  const add = button('Add member', () => {
    const identifier = id.value.trim();
    if (!IDENTIFIER_START.test(identifier)) {
      problem.textContent = 'The ID is a URI, such as urn:missionweave:agent:… or urn:uuid:….';
      id.focus();
      return;
    }
    problem.textContent = '';
    // expectedRevision 0: the Principal has no Membership yet; if one appeared meanwhile, say so.
    void tools.act('membership.change', { principal: { type: type.value, id: identifier }, roles: [role.value] }, { expectedRevision: 0 });
  });
  const props: ElementProps = { className: 'mw-form', attrs: { 'aria-label': 'Add a member' } };
  const form = h('form', props, h('h3', {}, 'Add a member'), h('div', { className: 'mw-form-row' }, field('Kind', type), field('ID', id), field('Role', role), add), problem);
  // Enter in the ID field submits the form: act as the button does instead of navigating.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    add.click();
  });
  return form;
}

export function buildMembers(view: JsonObject, tools: PanelTools): Node[] {
  const presence = new Map(list(view, 'presence').map((line) => [str(line, 'agentId') ?? '', line] as const));
  const viewer = obj(view, 'viewer');
  const manages = MANAGING_ROLES.has(str(viewer, 'role') ?? '');
  const memberships = list(view, 'memberships');
  const headers = ['Member', 'Role', 'State', 'Epoch', 'Since', 'Presence', ...(manages ? ['Actions'] : [])];
  const rows = memberships.map((membership) => {
    const member = obj(membership, 'member');
    const cells: Node[] = [
      h('span', { className: 'mw-id' }, principalText(member)),
      document.createTextNode(dash(str(membership, 'role'))),
      h('span', { className: `mw-badge mw-membership-${str(membership, 'state') ?? 'unknown'}` }, dash(str(membership, 'state'))),
      document.createTextNode(dash(num(membership, 'membershipEpoch'))),
      document.createTextNode(when(str(membership, 'activatedAt') ?? str(membership, 'grantedAt'))),
      document.createTextNode(presenceText(member, presence)),
    ];
    if (manages) cells.push(actionsFor(membership, view, tools));
    return cells;
  });
  const nodes: Node[] = [table(`${memberships.length} Membership(s)`, headers, rows)];
  if (bool(viewer, 'limited') === true) {
    nodes.unshift(h('p', { className: 'mw-hint' }, 'Your Membership has limited visibility: only your own Membership is shown (§8).'));
  }
  nodes.push(manages ? addMemberForm(tools) : h('p', { className: 'mw-muted' }, 'Read-only: the MissionOwner or the Coordinator changes Memberships (§8).'));
  return nodes;
}

export const membersPanel = viewPanel({
  id: 'members',
  title: 'Members',
  subtitle: 'Memberships, roles and presence (§8, §6.2).',
  follow: 'notice',
  build: (view, _context, tools) => buildMembers(view, tools),
});
