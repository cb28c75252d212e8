-- The Registry snapshot the Organization publishes (`GET /v1/registry`, `registry export`): the
-- Registry in the normative fixture schema's form, its revision and the context generator,
-- signed by the Registry service once per Registry revision and stored, so that every node and
-- the CLI hand out the same bytes at one revision. Only the newest is kept: a verifier asks for
-- the current Registry, and each revision's copy is the size of the whole Registry.
create table registry_publications (
  organization_id  text primary key,
  revision         bigint not null,
  document         text not null
);
