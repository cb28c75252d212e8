/**
 * The dialogue as the Group recorded it: the profile's slice folded from the Group's Events by the
 * profile's own evolve functions (so the CLI reads the turns exactly as the Authority does), the
 * recorded turn files whole, and what `next` and `status` print from them. The Group is
 * authoritative; the folder's turn files are only compared with it (§3.2).
 */

import { disputConfigPinned, disputTurnRecorded, type ConfigPinnedPayload, type TurnRecordedPayload } from '../../domain/disput/disputProfile.js';
import { addresseeText, initialDisputState, type DisputState } from '../../domain/disput/disputTypes.js';
import { foldItems, isResolved } from '../../domain/disput/items.js';
import { nextTurn, type Next } from '../../domain/disput/schedule.js';
import type { EventMeta } from '../../domain/model.js';
import type { Principal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { LAST_TURNS_SHOWN } from './disputCliLimits.js';

export interface RecordedDialogue {
  readonly state: DisputState;
  /** The recorded turn files, by file name, as committed. */
  readonly texts: ReadonlyMap<string, string>;
}

export function readDialogue(events: readonly JsonObject[]): RecordedDialogue {
  let state = initialDisputState();
  const texts = new Map<string, string>();
  for (const event of events) {
    const meta: EventMeta = { actor: event['actor'] as unknown as Principal, occurredAt: String(event['occurredAt']), sequence: Number(event['sequence']), eventId: String(event['eventId']) };
    if (event['kind'] === disputConfigPinned.kind) state = disputConfigPinned.evolve(state, event['payload'] as unknown as ConfigPinnedPayload, meta);
    if (event['kind'] === disputTurnRecorded.kind) {
      const payload = event['payload'] as unknown as TurnRecordedPayload;
      state = disputTurnRecorded.evolve(state, payload, meta);
      texts.set(payload.fileName, payload.text);
    }
  }
  return { state, texts };
}

/** §7 on the recorded dialogue; before turn 1 the backlog's implementer starts (seed §7.4). */
export function whoPlays(state: DisputState): Next & { readonly line: string } {
  if (state.config === null) {
    return { step: 'backlog', roles: [], why: 'no turn recorded yet: turn 1 pins disput.toml and the backlog', line: 'turn 1: no turn recorded yet — the first turn pins disput.toml and the backlog' };
  }
  const next = nextTurn({ config: state.config, turns: state.turns, backlog: state.backlog });
  const turn = (state.turns.at(-1)?.number ?? 0) + 1;
  const line = next.participant === undefined ? `DONE — ${next.why}` : `turn ${turn}: ${next.participant} plays ${next.roles.join(' or ')} — ${next.why}`;
  return { ...next, line };
}

/** `status`: items by state (folded from the turns, §5), the backlog, the last turns. */
export function statusOf(state: DisputState): JsonObject {
  const items = foldItems(state.turns);
  const byState: Record<string, string[]> = {};
  for (const item of items) (byState[item.status] ??= []).push(item.id);
  return {
    turns: state.turns.length,
    items: items.map((item) => ({ id: item.id, status: item.status, author: item.author, to: addresseeText(item.to), resolved: isResolved(item) })),
    byState,
    backlog: state.backlog === null ? null : { open: state.backlog.open, next: state.backlog.next },
    lastTurns: state.turns.slice(-LAST_TURNS_SHOWN).map((t) => ({ number: t.number, fileName: t.fileName, participant: t.participant, role: t.role, status: t.status, commit: t.commit })),
  } as unknown as JsonObject;
}
