/**
 * What a batch of Group Commands needs read before its decisions, from each kind's entry: the
 * Groups and Missions creations bring into being, the Agents whose Session Epochs matter, the
 * Missions of other Groups referred to, the Messages of each Group the Commands name, and the
 * Artifact contents whose stored facts a decision reads.
 */

import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { VerifiedCommand } from './verifyCommand.js';

export interface BatchPreloads {
  readonly created: readonly { readonly groupId: string; readonly missionId: string }[];
  /** Sorted and distinct: the actors that are Agents, and the Agents the payloads appoint. */
  readonly agents: readonly string[];
  readonly missions: readonly string[];
  readonly messagesByGroup: ReadonlyMap<string, readonly string[]>;
  /** Groups whose stored history a decision compares (archival), with the Policy Log entries cited. */
  readonly histories: ReadonlyMap<string, readonly string[]>;
  /** Distinct Artifact content hashes (`artifact.publish` needs its content stored first, §13.1). */
  readonly contents: readonly string[];
  /** Distinct Extension Profile URIs a pin names (§18). */
  readonly profiles: readonly string[];
}

function defined(values: readonly (string | undefined)[] | undefined): string[] {
  return (values ?? []).filter((v): v is string => v !== undefined);
}

/** The Group and Mission a Command brings into being, if any. */
export function createdGroupOf(kinds: KindRegistry, command: VerifiedCommand): { groupId: string; missionId: string } | undefined {
  return kinds.groupKind(command.envelope.kind)?.creates?.(command.envelope);
}

/** The Groups a Command's transaction locks: its own, the ones it creates and any its kind names. */
export function lockedGroupsOf(kinds: KindRegistry, command: VerifiedCommand): string[] {
  const entry = kinds.groupKind(command.envelope.kind);
  const own = command.envelope.groupId as string;
  const created = entry?.creates?.(command.envelope)?.groupId;
  const extra = entry?.scope === 'group' ? (entry.locks?.(command.envelope) ?? []) : [];
  return [...new Set([own, ...(created === undefined ? [] : [created]), ...extra])];
}

export function batchPreloads(kinds: KindRegistry, items: readonly VerifiedCommand[]): BatchPreloads {
  const agents = new Set<string>();
  const missions = new Set<string>();
  const messagesByGroup = new Map<string, string[]>();
  const created: { groupId: string; missionId: string }[] = [];
  const histories = new Map<string, string[]>();
  const contents = new Set<string>();
  const profiles = new Set<string>();
  for (const { envelope } of items) {
    const entry = kinds.groupKind(envelope.kind);
    if (envelope.actor.type === 'agent') agents.add(envelope.actor.id);
    if (entry === undefined) continue;
    const creation = entry.creates?.(envelope);
    if (creation !== undefined) created.push(creation);
    for (const id of defined(entry.preload?.agents?.(envelope))) agents.add(id);
    for (const id of defined(entry.preload?.missions?.(envelope))) missions.add(id);
    const history = entry.preload?.history?.(envelope);
    if (history !== undefined) histories.set(history.groupId, [...(histories.get(history.groupId) ?? []), ...history.policyLogEntryIds]);
    for (const hash of defined(entry.preload?.contents?.(envelope))) contents.add(hash);
    for (const uri of defined(entry.preload?.profiles?.(envelope))) profiles.add(uri);
    const messages = defined(entry.preload?.messages?.(envelope));
    if (messages.length > 0) {
      const groupId = envelope.groupId as string;
      messagesByGroup.set(groupId, [...(messagesByGroup.get(groupId) ?? []), ...messages]);
    }
  }
  return { created, agents: [...agents].sort(), missions: [...missions], messagesByGroup, histories, contents: [...contents], profiles: [...profiles] };
}
