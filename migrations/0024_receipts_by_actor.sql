-- Every actor's receipts lie in one table, so that its primary key holds §15.1's rule (an Action
-- ID is unique per actor, across all of its Commands): the services' (actor type `service`: the
-- only actors whose Organization-scoped Commands are accepted, the Registry service's card
-- registrations and the Group Authority's session activations) in `organization_receipts`, their
-- Group Commands' too, and every other actor's in `receipts`. From 0023 to here a service's
-- Organization Command and its Group Command were checked in different tables, so one Action ID
-- could be accepted in both (docs/citus.md, "The §15.1 receipt rule"). On Citus
-- `organization_receipts` stays a table of the coordinator, so a session activation still needs
-- no worker but its Agent's Session Epoch's.

-- One connection per worker, so that the multi-shard delete and the DDL below may share this
-- transaction on Citus (an inert placeholder setting on plain PostgreSQL).
set local citus.multi_shard_modify_mode to 'sequential';

-- The DDL on tables Citus knows is in blocks of its own: Citus sends a table's changed
-- constraints to its shards as the text of the statement that named them, and this file's many
-- statements in one were refused there ("cannot insert multiple commands into a prepared statement").
do $$
begin
  alter table organization_receipts drop constraint organization_receipts_no_group;
  alter table organization_receipts add constraint organization_receipts_services check (actor_type = 'service');
end
$$;

insert into organization_receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                                   key_id, admission_record_id, trusted_accepted_at)
select actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at
from receipts where actor_type = 'service'
on conflict do nothing;

-- The moved rows (the only ones there with a Group: 0023 allowed none) leave `receipts`. A row
-- that could not move — its Action ID, signed document or admission record already in
-- `organization_receipts`, a collision the tables let through since 0023 — stays, unread: every
-- read of a service's receipts looks in `organization_receipts`.
delete from receipts
where actor_type = 'service'
  and (actor_id, admission_record_id) in (select actor_id, admission_record_id from organization_receipts where group_id is not null);

-- No new service receipt may land in `receipts`; checked of the existing rows when none stayed.
do $$
begin
  alter table receipts add constraint receipts_not_services check (actor_type <> 'service') not valid;
  if not exists (select 1 from receipts where actor_type = 'service') then
    alter table receipts validate constraint receipts_not_services;
  end if;
end
$$;
