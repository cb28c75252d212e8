/**
 * One Group: its Panels as tabs (`#/groups/{g}/{panel}`), and the ConsoleContext they share —
 * the view read, bearer reads, Commands built and signed in the page with the human's current
 * Membership Epoch, the refusal box, and one live Event stream fanned out to the Panels.
 */

import { submitCommand } from '../commands.js';
import { el } from '../dom.js';
import { followGroup } from '../eventStream.js';
import type { CommandOptions, ConsoleContext, JsonObject, Panel, SubmitResult } from '../panel.js';
import { panels } from '../panels/index.js';
import { stateName } from '../names.js';
import { currentApi, currentNames, guarded, showRefusal } from '../shell.js';

interface Open {
  readonly groupId: string;
  stop: () => void;
  readonly listeners: Set<(event: JsonObject) => void>;
  panel?: Panel;
  /** The stream's last state, shown again when the human switches Panels. */
  live: string;
}

let open: Open | undefined;
/** The heading's listener: the Mission line follows Mission transitions. */
let headingStop: (() => void) | undefined;

/** Leaves the Group screen: the Panel's dispose, then the stream. */
export function leaveGroup(): void {
  headingStop?.();
  headingStop = undefined;
  open?.panel?.dispose?.();
  open?.stop();
  open = undefined;
}

/**
 * The human's Membership Epoch in the view, which every Group Command must carry: its
 * Membership's here, or, below a Mission it owns, that of the Membership it reads through (`via`).
 */
function membershipEpochOf(view: JsonObject): number | undefined {
  const viewer = view['viewer'] as JsonObject | undefined;
  const memberships = (view['memberships'] ?? []) as JsonObject[];
  const mine = memberships.find((m) => m['membershipId'] === viewer?.['membershipId']);
  const via = viewer?.['via'] as JsonObject | null | undefined;
  const epoch = mine?.['membershipEpoch'] ?? via?.['membershipEpoch'];
  return typeof epoch === 'number' ? epoch : undefined;
}

function contextFor(state: Open): ConsoleContext {
  const api = currentApi();
  if (api === undefined) throw new Error('no key');
  const groupPath = `/v1/groups/${encodeURIComponent(state.groupId)}`;
  return {
    me: { type: 'human', id: api.identity.humanId, keyId: api.identity.keyId },
    groupId: state.groupId,
    view: () => api.get(`${groupPath}/view`),
    get: (path) => api.get(path),
    async submit(kind: string, payload: JsonObject, options: CommandOptions = {}): Promise<SubmitResult> {
      const groupId = options.groupId === undefined ? state.groupId : options.groupId;
      // The Membership Epoch is read fresh: a change since the Panel rendered would fence it.
      const membershipEpoch = groupId === null ? undefined : membershipEpochOf(await api.get(`/v1/groups/${encodeURIComponent(groupId)}/view`));
      return submitCommand(api, kind, payload, { ...options, groupId, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) });
    },
    showRefusal,
    names: () => currentNames(),
    onEvent(listener) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
  };
}

function tabs(groupId: string, active: string): HTMLElement {
  return el('nav', { class: 'tabs', 'aria-label': 'Mission Panels' },
    ...panels().map((panel) => el('a', {
      href: `#/groups/${encodeURIComponent(groupId)}/${panel.id}`,
      'aria-current': panel.id === active ? 'page' : undefined,
    }, panel.title)));
}

export async function renderGroup(root: HTMLElement, groupId: string, panelId: string | undefined): Promise<void> {
  const api = currentApi();
  if (api === undefined) return;
  const list = panels();
  const panel = list.find((p) => p.id === panelId) ?? list[0];
  if (panel === undefined) return;
  open?.panel?.dispose?.();
  if (open?.groupId !== groupId) {
    leaveGroup();
    const state: Open = { groupId, stop: () => undefined, listeners: new Set(), live: 'connecting…' };
    open = state;
    await guarded(async () => {
      const view = await api.get(`/v1/groups/${encodeURIComponent(groupId)}/view`);
      const after = Number(view['lastSequence'] ?? 0);
      const stop = followGroup(api, groupId, after, {
        onEvent: (event) => state.listeners.forEach((listener) => listener(event)),
        onRefused: showRefusal,
        onState: (s) => {
          state.live = s === 'live' ? 'live' : 'reconnecting…';
          document.getElementById('live-state')?.replaceChildren(state.live);
        },
      });
      state.stop = stop;
    });
  }
  const current = open as Open;
  const body = el('section', { class: 'panel', 'aria-labelledby': 'panel-title' });
  const mission = el('p', { class: 'muted', id: 'mission-line' });
  root.append(
    el('div', { class: 'heading' }, el('h1', { id: 'panel-title' }, panel.title), el('span', { id: 'live-state', class: 'live', 'aria-live': 'polite' }, current.live)),
    mission,
    tabs(groupId, panel.id),
    body);
  current.panel = panel;
  const describe = async (): Promise<void> => {
    const view = await api.get(`/v1/groups/${encodeURIComponent(groupId)}/view`);
    const m = view['mission'] as JsonObject | undefined;
    const notes = view['missionNotes'] as JsonObject | undefined;
    mission.textContent = `${String(notes?.['title'] ?? '')} · ${stateName(m?.['state'] as string | undefined)} · revision ${String(m?.['revision'] ?? '')}`;
  };
  headingStop?.();
  const onMission = (event: JsonObject): void => {
    if (String(event['kind']).startsWith('mission.')) void describe().catch(() => undefined);
  };
  current.listeners.add(onMission);
  headingStop = () => current.listeners.delete(onMission);
  await guarded(async () => {
    await describe();
    await panel.render(body, contextFor(current));
  });
}
