/**
 * The Organization decider (§6.1, §6.3): Agent Card registration by the registry service and
 * session opening by the Group Authority. These Events belong to no Group and carry no sequence.
 *
 * The app verifies the embedded card's signature and works out its key bindings (that needs the
 * Registry and cryptography); it hands the verdicts in as `CardRegistrationFacts`, and the rules
 * about who may register what, and in which order, are decided here.
 */

import { samePrincipal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { fromJson, toJson } from '../documents.js';
import { withLayeredEntry } from '../../protocol/layeredMap.js';
import type { OrganizationKindEntry } from '../kinds/kindTypes.js';
import { accept, refuse, type AgentFacts, type CommandEnvelope, type Decision, type DecisionContext, type RecordedEvent } from '../model.js';
import { ORGANIZATION_REASONS } from './organizationReasons.js';
import { ORGANIZATION_EXAMPLES } from './organizationExamples.js';

export const CARD_REGISTER = 'ext.missionweaveprotocol.registry.agent_card_register';
export const CARD_REGISTERED = 'ext.missionweaveprotocol.registry.agent_card_registered';
export const SESSION_OPEN = 'ext.missionweaveprotocol.identity.session_open';
export const SESSION_OPENED = 'ext.missionweaveprotocol.identity.session_opened';

/**
 * The Organization-scoped kinds' entries: the Agent Card inside a registration is verified with
 * its issuer's authority by the app before the decision (`CardRegistrationFacts`).
 */
export const ORGANIZATION_EVENT_KINDS: readonly string[] = [CARD_REGISTERED, SESSION_OPENED];

export const ORGANIZATION_KINDS: readonly OrganizationKindEntry[] = [
  {
    scope: 'organization',
    kind: CARD_REGISTER,
    embedded: { member: 'card', document: 'agent-card' },
    examples: ORGANIZATION_EXAMPLES['ext.missionweaveprotocol.registry.agent_card_register'],
  },
  { scope: 'organization', kind: SESSION_OPEN, examples: ORGANIZATION_EXAMPLES['ext.missionweaveprotocol.identity.session_open'] },
];

/**
 * Both maps hold one entry per Agent and move on every registration and HELLO: evolve sets them
 * with `withLayeredEntry` (O(√Agents) per Event, not a copy of every Agent's entry).
 */
export interface OrganizationState {
  /** The latest registered Agent Card of each Agent. */
  readonly agents: ReadonlyMap<string, { readonly cardVersion: number; readonly status: AgentFacts['status'] }>;
  /** Each Agent's current Session Epoch; absent until its first session opens. */
  readonly sessions: ReadonlyMap<string, number>;
}

export function initialOrganizationState(): OrganizationState {
  return { agents: new Map(), sessions: new Map() };
}

/** What the app established about an embedded Agent Card before the decision. */
export interface CardRegistrationFacts {
  /** The card, signature-verified. */
  readonly card: JsonObject;
  /** Signed by the registry service's key, for this Organization. */
  readonly cardIssuerAuthorized: boolean;
  /** Why the card's keys would rebind or alias a Registry entry, when they would. */
  readonly registryProblem?: string;
}

interface CardMembers {
  readonly agentId: string;
  readonly organizationId: string;
  readonly cardVersion: number;
  readonly status: AgentFacts['status'];
}

function decideCardRegister(
  state: OrganizationState,
  command: CommandEnvelope,
  ctx: DecisionContext,
  facts: CardRegistrationFacts | undefined,
): Decision {
  if (!samePrincipal(command.actor, ctx.services.registry)) {
    return refuse('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notRegistryService, 'only the Organization registry registers Agent Cards');
  }
  // Without the app's verdict the card counts as unverified: fail closed.
  if (facts === undefined || !facts.cardIssuerAuthorized) {
    return refuse('AUTH_FORBIDDEN', ORGANIZATION_REASONS.cardIssuerNotAuthorized, 'the card is not issued by the registry service');
  }
  const card = fromJson<CardMembers>(facts.card);
  if (card.organizationId !== ctx.services.organizationId) {
    return refuse('AUTH_FORBIDDEN', ORGANIZATION_REASONS.cardOtherOrganization, 'the card belongs to another Organization');
  }
  const registered = state.agents.get(card.agentId);
  if (registered !== undefined && card.cardVersion <= registered.cardVersion) {
    return refuse('REVISION_CONFLICT', ORGANIZATION_REASONS.cardVersionNotNewer, 'a card of this or a later version is registered', {
      currentRevision: registered.cardVersion,
    });
  }
  if (facts.registryProblem !== undefined) {
    return refuse('INVALID_COMMAND', ORGANIZATION_REASONS.cardKeysConflict, 'the card keys would rebind or alias registered keys', {
      registryProblem: facts.registryProblem,
    });
  }
  return accept({
    kind: CARD_REGISTERED,
    payload: toJson({ agentId: card.agentId, version: card.cardVersion, card: facts.card }),
    aggregate: { type: 'organization', id: card.agentId, revision: card.cardVersion },
  });
}

function decideSessionOpen(state: OrganizationState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  if (!samePrincipal(command.actor, ctx.services.authority)) {
    return refuse('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notGroupAuthority, 'only the Group Authority opens sessions');
  }
  const agentId = String(command.payload['agentId']);
  if (state.agents.get(agentId)?.status !== 'active') {
    return refuse('INVALID_COMMAND', ORGANIZATION_REASONS.agentCardInactive, 'the Agent has no active Agent Card');
  }
  // Epoch n + 1 fences every runtime still holding n or less (§6.3).
  const sessionEpoch = (state.sessions.get(agentId) ?? 0) + 1;
  return accept({
    kind: SESSION_OPENED,
    payload: { agentId, sessionEpoch },
    aggregate: { type: 'organization', id: agentId, revision: sessionEpoch },
  });
}

/** Decides an Organization-scoped Command; `facts` accompany Agent Card registrations. */
export function decideOrganizationCommand(
  state: OrganizationState,
  command: CommandEnvelope,
  ctx: DecisionContext,
  facts?: CardRegistrationFacts,
): Decision {
  switch (command.kind) {
    case CARD_REGISTER:
      return decideCardRegister(state, command, ctx, facts);
    case SESSION_OPEN:
      return decideSessionOpen(state, command, ctx);
    default:
      return refuse('INVALID_COMMAND', ORGANIZATION_REASONS.kindNotSupported, `${command.kind} is not an Organization Command`);
  }
}

export function evolveOrganization(state: OrganizationState, event: RecordedEvent): OrganizationState {
  switch (event.kind) {
    case CARD_REGISTERED: {
      const { agentId, version, card } = fromJson<{ agentId: string; version: number; card: CardMembers }>(event.payload);
      return { ...state, agents: withLayeredEntry(state.agents, agentId, { cardVersion: version, status: card.status }) };
    }
    case SESSION_OPENED: {
      const { agentId, sessionEpoch } = fromJson<{ agentId: string; sessionEpoch: number }>(event.payload);
      return { ...state, sessions: withLayeredEntry(state.sessions, agentId, sessionEpoch) };
    }
    default:
      throw new Error(`unknown Organization Event kind ${event.kind}`);
  }
}
