/**
 * Organization-scoped Commands: Agent Card registration and session opening
 * (docs/transitions.md, Organization).
 */

import { describe, expect, it } from 'vitest';
import {
  decideOrganizationCommand,
  evolveOrganization,
  initialOrganizationState,
  type CardRegistrationFacts,
  type OrganizationState,
} from '../../src/domain/organization/organization.js';
import type { CommandEnvelope, RecordedEvent } from '../../src/domain/model.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { EXAMPLE_AGENT_CARD } from '../support/payloadExamples.js';
import { recordDrafts, specification, testContext, type Decider } from '../support/specification.js';
import { AUTHORITY, COORD, ORGANIZATION, REGISTRY, WORLD, WORKER, envelope } from './fixtures.js';
import { ORGANIZATION_REASONS } from '../../src/domain/organization/organizationReasons.js';

const CARD = { ...EXAMPLE_AGENT_CARD, agentId: WORKER.id, organizationId: ORGANIZATION, cardVersion: 4 } as unknown as JsonObject;

function facts(card: JsonObject = CARD, extra: Partial<CardRegistrationFacts> = {}): CardRegistrationFacts {
  return { card, cardIssuerAuthorized: true, ...extra };
}

function organizationDecider(cardFacts?: CardRegistrationFacts): Decider<OrganizationState> {
  return {
    initialState: initialOrganizationState,
    decide: (state, command, ctx) => decideOrganizationCommand(state, command, ctx, cardFacts),
    evolve: evolveOrganization,
  };
}

const spec = (cardFacts?: CardRegistrationFacts) => specification(organizationDecider(cardFacts), WORLD);

function register(actor = REGISTRY, card: JsonObject = CARD): CommandEnvelope {
  const { groupId: _g, ...command } = envelope('ext.missionweaveprotocol.registry.agent_card_register', actor, { card });
  return command;
}

function openSession(agentId = WORKER.id, actor = AUTHORITY): CommandEnvelope {
  const { groupId: _g, ...command } = envelope('ext.missionweaveprotocol.identity.session_open', actor, { agentId });
  return command;
}

/** Events of accepted Commands, in order. */
function organizationHistory(steps: [CommandEnvelope, CardRegistrationFacts?][]): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  let state = initialOrganizationState();
  for (const [command, cardFacts] of steps) {
    const ctx = testContext(WORLD);
    const decision = decideOrganizationCommand(state, command, ctx, cardFacts);
    if (!decision.ok) throw new Error(decision.error.reason);
    const recorded = recordDrafts(organizationDecider(cardFacts), state, decision.events, command, ctx);
    state = recorded.reduce(evolveOrganization, state);
    events.push(...recorded);
  }
  return events;
}

const registered = organizationHistory([[register(), facts()]]);

describe('ext.missionweaveprotocol.registry.agent_card_register', () => {
  it('registers a card version the registry service issued for this Organization', () => {
    const after = spec(facts())
      .given([])
      .when(register())
      .then([
        {
          kind: 'ext.missionweaveprotocol.registry.agent_card_registered',
          payload: { agentId: WORKER.id, version: 4, card: CARD },
          aggregate: { type: 'organization', id: WORKER.id, revision: 4 },
        },
      ]);
    expect(after.agents.get(WORKER.id)).toEqual({ cardVersion: 4, status: 'active' });
    expect(after.sessions.size).toBe(0);
  });

  it('registers a later version, which may revoke the Agent', () => {
    const revoked = { ...CARD, cardVersion: 5, status: 'revoked' } as JsonObject;
    const after = spec(facts(revoked))
      .given(registered)
      .when(register(REGISTRY, revoked))
      .then([
        {
          kind: 'ext.missionweaveprotocol.registry.agent_card_registered',
          payload: { agentId: WORKER.id, version: 5, card: revoked },
          aggregate: { type: 'organization', id: WORKER.id, revision: 5 },
        },
      ]);
    expect(after.agents.get(WORKER.id)).toEqual({ cardVersion: 5, status: 'revoked' });
  });

  it('is the registry service’s only (AUTH_FORBIDDEN)', () => {
    spec(facts()).given([]).when(register(AUTHORITY)).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notRegistryService);
    spec(facts()).given([]).when(register(COORD)).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notRegistryService);
  });

  it('needs a card issued by the registry service for this Organization (AUTH_FORBIDDEN)', () => {
    spec(facts(CARD, { cardIssuerAuthorized: false })).given([]).when(register()).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.cardIssuerNotAuthorized);
    spec(undefined).given([]).when(register()).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.cardIssuerNotAuthorized);
    const foreign = { ...CARD, organizationId: 'urn:missionweave:organization:other' } as JsonObject;
    spec(facts(foreign)).given([]).when(register(REGISTRY, foreign)).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.cardOtherOrganization);
  });

  it('needs a version above the registered one (REVISION_CONFLICT)', () => {
    spec(facts()).given(registered).when(register()).thenFails('REVISION_CONFLICT', ORGANIZATION_REASONS.cardVersionNotNewer);
    const older = { ...CARD, cardVersion: 2 } as JsonObject;
    const decision = spec(facts(older)).given(registered).when(register(REGISTRY, older)).decision;
    expect(decision.ok ? undefined : decision.error.details).toEqual({ currentRevision: 4 });
  });

  it('refuses keys that would rebind or alias the Registry (INVALID_COMMAND)', () => {
    spec(facts(CARD, { registryProblem: 'key-rebinding' })).given([]).when(register()).thenFails('INVALID_COMMAND', ORGANIZATION_REASONS.cardKeysConflict);
  });
});

describe('ext.missionweaveprotocol.identity.session_open', () => {
  const sessionOpened = (sessionEpoch: number) => ({
    kind: 'ext.missionweaveprotocol.identity.session_opened',
    payload: { agentId: WORKER.id, sessionEpoch },
    aggregate: { type: 'organization', id: WORKER.id, revision: sessionEpoch },
  });

  it('opens Session Epoch 1, then n + 1', () => {
    const first = spec()
      .given(registered)
      .when(openSession())
      .then([sessionOpened(1)]);
    expect(first.sessions.get(WORKER.id)).toBe(1);
    const opened = organizationHistory([[register(), facts()], [openSession()], [openSession()]]);
    spec().given(opened).when(openSession()).then([sessionOpened(3)]);
  });

  it('is the Group Authority’s only (AUTH_FORBIDDEN)', () => {
    spec().given(registered).when(openSession(WORKER.id, REGISTRY)).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notGroupAuthority);
    spec().given(registered).when(openSession(WORKER.id, WORKER)).thenFails('AUTH_FORBIDDEN', ORGANIZATION_REASONS.notGroupAuthority);
  });

  it('needs an active Agent Card (INVALID_COMMAND)', () => {
    spec().given([]).when(openSession()).thenFails('INVALID_COMMAND', 'agent-card-inactive');
    const revoked = { ...CARD, cardVersion: 5, status: 'revoked' } as JsonObject;
    const events = organizationHistory([[register(), facts()], [register(REGISTRY, revoked), facts(revoked)]]);
    spec().given(events).when(openSession()).thenFails('INVALID_COMMAND', 'agent-card-inactive');
  });

  it('refuses Group kinds (INVALID_COMMAND)', () => {
    spec().given([]).when(envelope('mission.cancel', AUTHORITY, { reason: 'x' })).thenFails('INVALID_COMMAND', 'kind-not-supported');
  });

  it('evolve refuses an Event it does not know', () => {
    expect(() => evolveOrganization(initialOrganizationState(), { kind: 'mission.created', payload: {}, actor: AUTHORITY, occurredAt: WORLD.now, eventId: 'urn:x:e' })).toThrow();
  });
});
