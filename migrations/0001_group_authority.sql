-- The Group Authority's durable state. Group-scoped tables lead with group_id so the schema can
-- later be distributed by Group (Citus); Organization-scoped tables are small reference data.

-- One row per Organization: the Registry revision every node compares its cache with, and the
-- position counter of Organization-scoped Events (Agent Card registration, session opening).
create table organization_state (
  organization_id   text primary key,
  registry_revision bigint not null default 0,
  last_position     bigint not null default 0
);

-- Registry evidence: immutable signing-key bindings (§6.4). One key ID, one Principal, one
-- algorithm, one public key; the same public key never appears twice in the Organization.
create table key_bindings (
  key_id            text primary key,
  principal_type    text not null check (principal_type in ('agent', 'human', 'service')),
  principal_id      text not null,
  algorithm         text not null,
  public_key        text not null unique,
  valid_from        text not null,
  registry_revision bigint not null
);

-- Append-only validity history of each binding; boundaries only ever move earlier.
create table key_validity_records (
  key_id            text not null references key_bindings (key_id),
  sequence          integer not null check (sequence >= 1),
  recorded_at       text not null,
  valid_until       text,
  revoked_at        text,
  registry_revision bigint not null,
  primary key (key_id, sequence)
);

-- Registered Agent Cards, every version, exactly as signed.
create table agent_cards (
  agent_id       text not null,
  card_version   integer not null,
  status         text not null,
  document       text not null,
  signing_hash   text not null unique,
  registered_at  text not null,
  primary key (agent_id, card_version)
);

-- The current Session Epoch of each Agent (§6.3). Group transactions read it FOR SHARE, so a
-- session opening waits for in-flight Commands and every later Command sees the new epoch.
create table agent_sessions (
  agent_id       text primary key,
  session_epoch  bigint not null check (session_epoch >= 1),
  opened_at      text not null
);

-- Organization-scoped Events: no Group, no Group sequence (§15.2); ordered by position.
create table organization_events (
  position            bigint primary key,
  event_id            text not null unique,
  kind                text not null,
  document            text not null,
  signing_hash        text not null unique,
  admission_record_id text not null unique,
  trusted_accepted_at text not null
);

-- One row per Group: the counter whose row lock serializes the Group's writers across
-- processes, so commit order equals sequence order and sequences have no gaps.
create table groups (
  group_id       text primary key,
  mission_id     text not null unique,
  last_sequence  bigint not null default 0 check (last_sequence >= 0)
);

-- The Group's history: signed Events, stored as the exact bytes sent to subscribers.
create table events (
  group_id            text not null references groups (group_id),
  sequence            bigint not null check (sequence >= 1),
  event_id            text not null unique,
  kind                text not null,
  aggregate_type      text not null,
  aggregate_id        text not null,
  aggregate_revision  bigint not null,
  document            text not null,
  signing_hash        text not null unique,
  admission_record_id text not null unique,
  trusted_accepted_at text not null,
  primary key (group_id, sequence)
);

-- Current state of every aggregate of a Group (Mission, Memberships, Conversations, Messages,
-- the Coordinator lease …): the projection that replaying the Events must reproduce.
create table aggregates (
  group_id         text not null references groups (group_id),
  aggregate_type   text not null,
  aggregate_id     text not null,
  revision         bigint not null,
  document         jsonb not null,
  updated_sequence bigint not null,
  primary key (group_id, aggregate_type, aggregate_id)
);

-- Receipts of accepted Commands: idempotency for ever (§15.1) and their First-Admission
-- Records (§6.4). The primary key makes N concurrent duplicates yield one transition.
create table receipts (
  actor_type          text not null,
  actor_id            text not null,
  action_id           text not null,
  signing_hash        text not null unique,
  kind                text not null,
  group_id            text,
  command             text not null,
  event_ids           text[] not null,
  key_id              text not null,
  admission_record_id text not null unique,
  trusted_accepted_at text not null,
  primary key (actor_type, actor_id, action_id)
);
