/**
 * The dialogue as the Group recorded it: the profile's slice folded from the Group's Events by the
 * profile's own evolve functions (so the CLI reads the turns exactly as the Authority does), the
 * recorded turn files whole, and what `next` and `status` print from them. The Group is
 * authoritative; the folder's turn files are only compared with it (§3.2).
 */

import { disputConfigPinned, disputTurnRecorded, type ConfigPinnedPayload, type TurnRecordedPayload } from '../../domain/disput/disputProfile.js';
import { addresseeText, initialDisputState, type DisputState } from '../../domain/disput/disputTypes.js';
import { summarizeBacklog } from '../../domain/disput/backlog.js';
import { parseDisputConfig } from '../../domain/disput/disputConfig.js';
import { isRefusal } from '../../domain/disput/disputRefusals.js';
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

/**
 * §7 on the recorded dialogue. Before turn 1 nothing is pinned: the folder's `disput.toml` and
 * backlog say who starts (§7.4, the backlog's implementer), as turn 1 will pin them.
 */
export function whoPlays(state: DisputState, folder: { readonly config?: string; readonly backlog?: string }): Next & { readonly line: string } {
  let view = state.config === null ? undefined : { config: state.config, turns: state.turns, backlog: state.backlog };
  if (view === undefined) {
    const config = folder.config === undefined ? undefined : parseDisputConfig(folder.config);
    if (config === undefined || isRefusal(config)) {
      const why = config === undefined ? 'no .disput/disput.toml in the folder' : `disput.toml is refused: ${config.error.message}`;
      return { step: 'done', roles: [], why, line: `no turn recorded and ${why}` };
    }
    view = { config, turns: [], backlog: folder.backlog === undefined ? null : summarizeBacklog(folder.backlog) };
  }
  const next = nextTurn(view);
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
