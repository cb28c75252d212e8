-- The Registry revision each Agent Card was registered at, as key bindings and validity records
-- already carry theirs: a node whose Registry copy is at revision r catches up by reading the
-- rows of (r, R] instead of every card and binding (src/app/registryCatchUp.ts). Cards stored
-- before this migration have none; only a full reload reads them.
alter table agent_cards add column registry_revision bigint;
create index agent_cards_registry_revision on agent_cards (registry_revision) where registry_revision is not null;
create index key_bindings_registry_revision on key_bindings (registry_revision);
create index key_validity_records_registry_revision on key_validity_records (registry_revision);
