/**
 * Names instead of identifiers: the console shows an Agent by its Agent Card's display name
 * (`GET /v1/agents`, docs/human-api.md), a human by the handle their ID ends with, a Mission by
 * its title and a WorkItem by its goal. The identifiers stay what Commands carry; the human reads
 * names. A name the console cannot find is a short form of the identifier, never the whole URN.
 */

import type { Json, JsonObject } from './panel.js';

/** One Agent of `GET /v1/agents`. */
export interface DirectoryAgent {
  readonly agentId: string;
  readonly displayName: string;
  readonly status: string;
  /** `id@version` as the card declares them. */
  readonly capabilities?: readonly string[];
}

/**
 * Capabilities of the node's own service Agents (the context generator,
 * src/app/context/contextGenerator.ts): an Agent that declares nothing else serves the node and
 * coordinates no Mission, so the pickers leave it out.
 */
const NODE_SERVICE_CAPABILITIES: ReadonlySet<string> = new Set(['missionweave.context-generation']);

function servesTheNode(agent: DirectoryAgent): boolean {
  const ids = (agent.capabilities ?? []).map((capability) => capability.split('@')[0] ?? '');
  return ids.length > 0 && ids.every((id) => NODE_SERVICE_CAPABILITIES.has(id));
}

/** `urn:missionweave:agent:planner` → `planner`: the handle the operator gave (`missionweave agent add planner`). */
const HANDLE_URN = /^urn:missionweave:(?:agent|human|service):([^:]{1,64})$/;
/** Characters of an identifier's tail kept when no name is known. */
const SHORT_TAIL = 8;

function record(value: Json | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

function text(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A readable stand-in for an identifier nobody named: its handle, or `…` and its last characters. */
export function shortName(id: string): string {
  const handle = HANDLE_URN.exec(id)?.[1];
  if (handle !== undefined) return handle;
  return id.length <= SHORT_TAIL + 1 ? id : `…${id.slice(-SHORT_TAIL)}`;
}

export class Names {
  private readonly agents = new Map<string, DirectoryAgent>();
  private readonly workItems = new Map<string, string>();
  private readonly missions = new Map<string, string>();

  constructor(directory: readonly DirectoryAgent[] = []) {
    for (const agent of directory) this.agents.set(agent.agentId, agent);
  }

  /** These names plus the titles a Group view gives: its Mission's and its WorkItems' goals. */
  withView(view: JsonObject | undefined): Names {
    const names = new Names([...this.agents.values()]);
    for (const [id, title] of this.missions) names.missions.set(id, title);
    for (const [id, title] of this.workItems) names.workItems.set(id, title);
    const missionId = text(record(view?.['mission'])?.['missionId']);
    const title = text(record(view?.['missionNotes'])?.['title']);
    if (missionId !== undefined && title !== undefined) names.missions.set(missionId, title);
    const items = view?.['workItems'];
    for (const item of Array.isArray(items) ? items : []) {
      const id = text(record(item)?.['workItemId']);
      const goal = text(record(item)?.['goal']);
      if (id !== undefined && goal !== undefined) names.workItems.set(id, goal);
    }
    return names;
  }

  /** A Principal's name from its ID: the Agent's display name, a handle, or a short form. */
  of(id: string | undefined): string {
    if (id === undefined || id === '') return '—';
    return this.agents.get(id)?.displayName ?? shortName(id);
  }

  /** A `{type, id}` Principal's name. */
  principal(principal: Json | undefined): string {
    return this.of(text(record(principal)?.['id']));
  }

  /** A WorkItem by its goal, when the view had it. */
  workItem(id: string | undefined): string {
    if (id === undefined || id === '') return '—';
    return this.workItems.get(id) ?? `WorkItem ${shortName(id)}`;
  }

  /** A Mission by its title, when known. */
  mission(id: string | undefined): string {
    if (id === undefined || id === '') return '—';
    return this.missions.get(id) ?? `Mission ${shortName(id)}`;
  }

  /** Whatever the identifier names — an Agent, a WorkItem, a Mission — or its short form. */
  label(id: string | undefined): string {
    if (id === undefined || id === '') return '—';
    return this.agents.get(id)?.displayName ?? this.workItems.get(id) ?? this.missions.get(id) ?? shortName(id);
  }

  /** Agents a Mission may name as its Coordinator (or add as a member): an active Agent Card, not a node service; by name. */
  coordinatorCandidates(): DirectoryAgent[] {
    return [...this.agents.values()].filter((agent) => agent.status === 'active' && !servesTheNode(agent));
  }
}

/** Roles as the human reads them. */
const ROLE_NAMES: Readonly<Record<string, string>> = {
  mission_owner: 'MissionOwner',
  ancestor_mission_owner: 'MissionOwner of a parent Mission',
  coordinator: 'Coordinator',
  worker: 'Worker',
  reviewer: 'Reviewer',
  observer: 'Observer',
  work_delegate: 'Work delegate',
};

export function roleName(role: string | undefined): string {
  if (role === undefined || role === '') return '—';
  return ROLE_NAMES[role] ?? role.replace(/_/g, ' ');
}

/** A state word (`awaiting_approval`) as words (`awaiting approval`). */
export function stateName(state: string | undefined): string {
  return state === undefined || state === '' ? '—' : state.replace(/_/g, ' ');
}
