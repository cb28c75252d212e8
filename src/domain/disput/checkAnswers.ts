/**
 * What a turn says about items, checked against the items folded before it (seed §5, rule 3,
 * §8.6): every answer names a known item, is set by the right party and follows the lifecycle;
 * every item waiting for this participant gets its answer; every new item reaches someone other
 * than its author; status DONE leaves nothing unresolved.
 */

import type { Refusal } from '../model.js';
import { disputRefusal } from './disputRefusals.js';
import { addresseeText, holdersOf, participantOf, roleOf, DECIDER_ROLE, type Addressee, type DisputConfig, type RecordedTurn, type TurnFile } from './disputTypes.js';
import { applyTurn, awaitingAnswer, isResolved, maySet, setterOf, TRANSITIONS, type ItemState } from './items.js';

function checkAnswers(config: DisputConfig, items: ReadonlyMap<string, ItemState>, turn: TurnFile): Refusal | undefined {
  const { participant, role } = turn.header;
  for (const answer of turn.answers) {
    const item = items.get(answer.item);
    if (item === undefined) return disputRefusal('item_unknown', `no earlier turn opened ${answer.item}`, { item: answer.item });
    if (!maySet(config, item, answer.verdict, participant, role)) {
      const setter = setterOf(answer.verdict, item.status);
      return setter === 'addressee'
        ? disputRefusal('answer_not_addressee', `${answer.verdict} on ${item.id} is for ${addresseeText(item.to)}`, { item: item.id })
        : disputRefusal('answer_not_author', `${answer.verdict} on ${item.id} is for ${setter === 'author' ? `its author @${item.author}` : addresseeText(item.escalatedTo ?? item.to)}`, { item: item.id });
    }
    if (!TRANSITIONS[answer.verdict].from.includes(item.status)) {
      return disputRefusal('item_transition_invalid', `${item.id} is ${item.status}: ${answer.verdict} does not follow (§5)`, { item: item.id, status: item.status });
    }
    if (answer.escalatedTo !== undefined) {
      const refusal = reachable(config, answer.escalatedTo, participant);
      if (refusal !== undefined) return refusal;
    }
  }
  return undefined;
}

/** An addressee exists and someone other than `author` can act as it. */
function reachable(config: DisputConfig, to: Addressee, author: string): Refusal | undefined {
  if (to.kind === 'participant') {
    if (participantOf(config, to.name) === undefined) return disputRefusal('addressee_unknown', `@${to.name} is not a participant`);
    if (to.name === author) return disputRefusal('item_self_addressed', `@${to.name} is the author`);
    return undefined;
  }
  if (to.name !== DECIDER_ROLE && roleOf(config, to.name) === undefined) return disputRefusal('addressee_unknown', `role:${to.name} is not a role of disput.toml`);
  if (!holdersOf(config, to.name).some((p) => p.name !== author)) return disputRefusal('addressee_unknown', `no participant but the author holds role:${to.name}`);
  return undefined;
}

/**
 * Checks the answers and items of `turn` on the items before it; returns the items after it, or
 * why the turn is refused.
 */
export function checkItems(config: DisputConfig, items: ReadonlyMap<string, ItemState>, turn: TurnFile, recorded: Pick<RecordedTurn, 'number' | 'participant' | 'answers' | 'items'>): Map<string, ItemState> | Refusal {
  const wrong = checkAnswers(config, items, turn);
  if (wrong !== undefined) return wrong;
  const { participant, role } = turn.header;
  // Rule 3: « Chaque item adressé à un participant DOIT recevoir une réponse explicite de sa part ».
  const answered = new Set(turn.answers.map((a) => a.item));
  const missing = awaitingAnswer(config, [...items.values()], participant, role).filter((item) => !answered.has(item.id));
  if (missing.length > 0) {
    return disputRefusal('answer_missing', `waiting for an answer from @${participant}: ${missing.map((i) => i.id).join(', ')} (rule 3)`, { items: missing.map((i) => i.id) });
  }
  for (const item of turn.items) {
    const refusal = reachable(config, item.to, participant);
    if (refusal !== undefined) return refusal;
  }
  const after = applyTurn(items, recorded);
  if (turn.header.status === 'DONE') {
    const open = [...after.values()].filter((item) => !isResolved(item)).map((item) => item.id);
    if (open.length > 0) return disputRefusal('done_with_pending_items', `status DONE with unresolved items: ${open.join(', ')}`, { items: open });
  }
  return after;
}
