/** One line about an Event for the timeline: who did what, in the human's words and names. */

import type { Names } from '../names.js';
import type { JsonObject } from '../panel.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A Message's content parts as one line: text as is, anything else named by its type. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: JsonObject) => (part['type'] === 'text' ? text(part['text']) : part['type'] === 'artifact_ref' ? '[an Artifact]' : `[${text(part['type'])}]`)).join(' ');
}

/** Who acted: the Agent's name, the human's handle. */
export function actorLabel(event: JsonObject, names: Names): string {
  return names.principal(event['actor'] as JsonObject | undefined);
}

/** A WorkItem in an Event: its goal from the Event's own contract, else from the view. */
function workItemTitle(workItem: JsonObject, names: Names): string {
  const goal = text((workItem['contract'] as JsonObject | undefined)?.['goal']);
  return goal !== '' ? goal : names.workItem(text(workItem['workItemId']));
}

export function summary(event: JsonObject, names: Names): string {
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
      return `Revision ${String(payload['missionRevision'])} submitted for your approval with ${(payload['artifactHashes'] as unknown[] | undefined)?.length ?? 0} Artifact(s).`;
    case 'mission.changes_requested':
      return `Changes requested on revision ${String(payload['missionRevision'])}: ${text(payload['feedback'])}`;
    case 'mission.approved':
      return `Approved revision ${String((payload['approval'] as JsonObject | undefined)?.['missionRevision'])}.`;
    case 'membership.changed':
    case 'membership.granted': {
      const membership = payload['membership'] as JsonObject | undefined;
      return `${names.principal(membership?.['member'] as JsonObject | undefined)} is ${text(membership?.['role']).replace(/_/g, ' ')} (${text(membership?.['state'])}).`;
    }
    default: {
      const workItem = payload['workItem'] as JsonObject | undefined;
      if (workItem !== undefined) return `WorkItem “${workItemTitle(workItem, names)}” is ${text(workItem['state'])}.`;
      if (mission !== undefined) return `The Mission is ${text(mission['state']).replace(/_/g, ' ')} (revision ${String(mission['revision'])}).`;
      return '';
    }
  }
}
