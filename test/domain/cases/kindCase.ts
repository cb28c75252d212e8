/**
 * The accepted case of one Group kind: a Command its usual sender may send, with the Events it
 * produces stated whole. The common-checks tests (`../commonChecks.unit.test.ts`) vary it —
 * another actor, another epoch, a terminal Mission, … — to show each check refuses it.
 *
 * Each kind's case is a file of its own beside this one, named after the kind
 * (`<kind>.case.ts`, as `schemas/payloads/<kind>.schema.json`) and exporting `CASE`;
 * `../kindCases.ts` collects them, so a new kind adds its file and edits no list.
 */

import type { GroupState } from '../../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../../src/domain/model.js';
import type { Principal } from '../../../src/protocol/principal.js';
import type { ExpectedEvent, World } from '../../support/specification.js';

export interface KindCase {
  readonly actor: Principal;
  /** The payload in the case's Group (`events`: its recorded history, for a snapshot of it). */
  readonly payload: (state: GroupState, events?: readonly RecordedEvent[]) => object;
  /** What the world holds besides the defaults, for a Group with these Events (archival's history). */
  readonly world?: (events: readonly RecordedEvent[]) => Partial<World>;
  /** Accepted only in a terminal Mission (archival), so the terminal-Mission refusals do not apply. */
  readonly terminal?: true;
  /** The Events the case's Command produces in `state`, stated whole. */
  readonly events: (state: GroupState) => ExpectedEvent[];
  /** Needs a submitted Mission to be accepted. */
  readonly submitted?: boolean;
  /** The Group the case is accepted in, built from the busy Group (default: the busy Group). */
  readonly given?: (busy: readonly RecordedEvent[]) => RecordedEvent[];
}

/** A case with the kind it accepts, as a `<kind>.case.ts` file exports it. */
export interface NamedKindCase extends KindCase {
  readonly kind: string;
}

/** The case of `kind`: what a `<kind>.case.ts` file exports as `CASE`. */
export function defineCase(kind: string, accepted: KindCase): NamedKindCase {
  return { kind, ...accepted };
}
