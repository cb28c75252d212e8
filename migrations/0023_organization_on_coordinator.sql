-- The Organization's own log, state and receipts are kept apart from the Groups' (on Citus: the
-- coordinator's local tables, src/store/citusLayout.ts), so that a session activation (HELLO)
-- needs no worker but its Agent's Session Epoch's: as reference tables, copied to every node,
-- `organization_state` (locked `for update` by every Organization Command) and
-- `organization_events` refused every session activation while any worker was down, and the
-- receipts of Organization-scoped Commands, sharded by actor, all lay on the one shard of the
-- Group Authority's service (the actor of every session activation) (docs/citus.md, "A worker
-- fails").
--
-- `organization_receipts` holds the receipts of Organization-scoped Commands (which name no
-- Group), with the same columns and keys as `receipts`; the existing ones move there.
create table organization_receipts (
  actor_type text not null,
  actor_id text not null,
  action_id text not null,
  signing_hash text not null,
  kind text not null,
  group_id text,
  command text not null,
  event_ids text[] not null,
  key_id text not null,
  admission_record_id text not null,
  trusted_accepted_at text not null,
  constraint organization_receipts_pkey primary key (actor_type, actor_id, action_id),
  constraint organization_receipts_admission_record_id_key unique (actor_id, admission_record_id),
  constraint organization_receipts_signing_hash_key unique (actor_id, signing_hash),
  constraint organization_receipts_no_group check (group_id is null)
);

-- On a Citus coordinator migrated before (0021 made them reference tables), the Organization's
-- log and state become local tables of the coordinator again, keeping their rows. On plain
-- PostgreSQL (no Citus) this does nothing.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'citus') then
    if exists (select 1 from pg_dist_partition where logicalrelid = 'organization_state'::regclass) then
      perform undistribute_table('organization_state');
    end if;
    if exists (select 1 from pg_dist_partition where logicalrelid = 'organization_events'::regclass) then
      perform undistribute_table('organization_events');
    end if;
  end if;
end
$$;

insert into organization_receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                                   key_id, admission_record_id, trusted_accepted_at)
select actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at
from receipts where group_id is null;

delete from receipts where group_id is null;
