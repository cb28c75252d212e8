-- Every Group-scoped row names its Mission tree (`tree_id`: the Group ID of the tree's root
-- Mission), the column a Citus cluster shards them by, so that a batch, a budget charge up the
-- ancestry, a tree read and a child sweep each stay on one shard (docs/operations.md, "Citus").
-- Constraints include it, as Citus requires; on plain PostgreSQL it is one more column.
--
-- `group_trees` is the organization-wide directory of Groups (a reference table on Citus): which
-- tree each Group is in and its parent Mission's Group (fixed when the Mission is created, §14),
-- and the one place a Mission ID is unique across trees.
create table group_trees (
  group_id text primary key,
  mission_id text not null unique,
  tree_id text not null,
  parent_group_id text
);

-- Existing Groups: a root Mission's Group is its own tree; a child's is its parent's (§14).
insert into group_trees (group_id, mission_id, tree_id, parent_group_id)
with recursive parents as (
  select distinct on (g.group_id) g.group_id, g.mission_id, p.group_id as parent_group_id
  from groups g
  left join aggregates a on a.group_id = g.group_id and a.aggregate_type = 'mission'
  left join groups p on p.mission_id = coalesce(a.document #>> '{mission,parent,missionId}', a.document #>> '{parent,missionId}')
                    and p.group_id <> g.group_id
  order by g.group_id, p.group_id nulls last
), tree(group_id, tree_id) as (
  select group_id, group_id from parents where parent_group_id is null
  union all
  select c.group_id, t.tree_id from parents c join tree t on c.parent_group_id = t.group_id
)
select p.group_id, p.mission_id, coalesce(t.tree_id, p.group_id), p.parent_group_id
from parents p left join tree t using (group_id);

alter table agent_cursors drop constraint agent_cursors_group_id_fkey;
alter table aggregates drop constraint aggregates_group_id_fkey;
alter table context_packages drop constraint context_packages_group_id_fkey;
alter table event_redactions drop constraint event_redactions_group_id_fkey;
alter table events drop constraint events_group_id_fkey;
alter table group_snapshots drop constraint group_snapshots_group_id_fkey;

alter table groups add column tree_id text;
update groups g set tree_id = t.tree_id from group_trees t where t.group_id = g.group_id;
alter table groups alter column tree_id set not null;
alter table groups drop constraint groups_pkey, drop constraint groups_mission_id_key;
alter table groups add constraint groups_pkey primary key (tree_id, group_id);
alter table groups add constraint groups_mission_id_key unique (tree_id, mission_id);

alter table events add column tree_id text;
update events e set tree_id = t.tree_id from group_trees t where t.group_id = e.group_id;
alter table events alter column tree_id set not null;
alter table events drop constraint events_pkey, drop constraint events_event_id_key,
  drop constraint events_signing_hash_key, drop constraint events_admission_record_id_key;
alter table events add constraint events_pkey primary key (tree_id, group_id, sequence);
alter table events add constraint events_event_id_key unique (tree_id, event_id);
alter table events add constraint events_signing_hash_key unique (tree_id, signing_hash);
alter table events add constraint events_admission_record_id_key unique (tree_id, admission_record_id);
alter table events add constraint events_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

alter table aggregates add column tree_id text;
update aggregates a set tree_id = t.tree_id from group_trees t where t.group_id = a.group_id;
alter table aggregates alter column tree_id set not null;
alter table aggregates drop constraint aggregates_pkey;
alter table aggregates add constraint aggregates_pkey primary key (tree_id, group_id, aggregate_type, aggregate_id);
alter table aggregates add constraint aggregates_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

alter table agent_cursors add column tree_id text;
update agent_cursors c set tree_id = t.tree_id from group_trees t where t.group_id = c.group_id;
alter table agent_cursors alter column tree_id set not null;
alter table agent_cursors drop constraint agent_cursors_pkey;
alter table agent_cursors add constraint agent_cursors_pkey primary key (tree_id, group_id, agent_id);
alter table agent_cursors add constraint agent_cursors_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

alter table event_redactions add column tree_id text;
update event_redactions r set tree_id = t.tree_id from group_trees t where t.group_id = r.group_id;
alter table event_redactions alter column tree_id set not null;
alter table event_redactions drop constraint event_redactions_pkey;
alter table event_redactions add constraint event_redactions_pkey primary key (tree_id, group_id, sequence);
alter table event_redactions add constraint event_redactions_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

alter table group_snapshots add column tree_id text;
update group_snapshots s set tree_id = t.tree_id from group_trees t where t.group_id = s.group_id;
alter table group_snapshots alter column tree_id set not null;
alter table group_snapshots drop constraint group_snapshots_pkey;
alter table group_snapshots add constraint group_snapshots_pkey primary key (tree_id, group_id, snapshot_hash);
alter table group_snapshots add constraint group_snapshots_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

alter table context_packages add column tree_id text;
update context_packages c set tree_id = t.tree_id from group_trees t where t.group_id = c.group_id;
alter table context_packages alter column tree_id set not null;
alter table context_packages drop constraint context_packages_pkey,
  drop constraint context_packages_group_id_recipient_type_recipient_id_cause_key,
  drop constraint context_packages_group_id_recipient_type_recipient_id_scope_key;
alter table context_packages add constraint context_packages_pkey primary key (tree_id, context_package_id);
alter table context_packages add constraint context_packages_group_id_recipient_type_recipient_id_cause_key
  unique (tree_id, group_id, recipient_type, recipient_id, cause, cause_epoch);
alter table context_packages add constraint context_packages_group_id_recipient_type_recipient_id_scope_key
  unique (tree_id, group_id, recipient_type, recipient_id, scope_key, version);
alter table context_packages add constraint context_packages_group_id_fkey foreign key (tree_id, group_id) references groups (tree_id, group_id);

-- Receipts are sharded by actor (§15.1: an Action ID is unique per actor, forever, whichever tree
-- its Command went to): the key already leads with the actor; a signed Command's hash and its
-- admission record are unique per actor, which the actor's signature inside it makes the same rule.
alter table receipts drop constraint receipts_signing_hash_key, drop constraint receipts_admission_record_id_key;
alter table receipts add constraint receipts_signing_hash_key unique (actor_id, signing_hash);
alter table receipts add constraint receipts_admission_record_id_key unique (actor_id, admission_record_id);
