/** One line about an Event for the timeline: who did what, in the human's words. */

import type { JsonObject } from '../panel.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A Message's content parts (§9) as one line: text as is, anything else named by its type. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: JsonObject) => (part['type'] === 'text' ? text(part['text']) : part['type'] === 'artifact_ref' ? `[Artifact ${text(part['artifactHash']).slice(0, 19)}…]` : `[${text(part['type'])}]`)).join(' ');
}

/** The actor as `type:tail`, short enough for a phone-width row. */
export function actorLabel(event: JsonObject): string {
  const actor = event['actor'] as JsonObject | undefined;
  const id = text(actor?.['id']);
  return `${text(actor?.['type'])} ${id.replace(/^urn:missionweave:(agent|human|service):/, '')}`.trim();
}

export function summary(event: JsonObject): string {
  const payload = (event['payload'] ?? {}) as JsonObject;
  const mission = payload['mission'] as JsonObject | undefined;
  switch (event['kind']) {
    case 'message.posted':
    case 'message.corrected':
      return contentText((payload['message'] as JsonObject | undefined)?.['content']);
    case 'message.redacted':
      return 'A Message was redacted.';
    case 'mission.created':
      return `Mission created: ${text(payload['title']) || text(mission?.['objective'])}`;
    case 'mission.submitted_for_approval':
      return `Revision ${String(payload['missionRevision'])} submitted with ${(payload['artifactHashes'] as unknown[] | undefined)?.length ?? 0} Artifact(s).`;
    case 'mission.changes_requested':
      return `Changes requested on revision ${String(payload['missionRevision'])}: ${text(payload['feedback'])}`;
    case 'mission.approved':
      return `Approved revision ${String((payload['approval'] as JsonObject | undefined)?.['missionRevision'])}.`;
    case 'membership.changed':
    case 'membership.granted': {
      const membership = payload['membership'] as JsonObject | undefined;
      const member = membership?.['member'] as JsonObject | undefined;
      return `${text(member?.['id'])} is ${text(membership?.['role'])} (${text(membership?.['state'])}).`;
    }
    default: {
      const workItem = payload['workItem'] as JsonObject | undefined;
      if (workItem !== undefined) return `WorkItem ${text(workItem['workItemId']).slice(-12)} → ${text(workItem['state'])}`;
      if (mission !== undefined) return `Mission → ${text(mission['state'])} (revision ${String(mission['revision'])})`;
      return '';
    }
  }
}
