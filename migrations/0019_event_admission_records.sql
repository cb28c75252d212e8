-- Each Group Event's First-Admission Record (§6.4), stored whole: the Event row already held the
-- record's signing hash, ID and trusted acceptance time (0001); it now holds the key ID the record
-- binds too, and each key Events are signed with has one row naming the Organization, the
-- Principal and the accepting service its records state. `replay --verify` compares these stored
-- records with what the six cryptographic stages establish, instead of rebuilding them from that
-- very evidence (which could never disagree with it).
alter table events add column key_id text;
-- Events stored before this migration: their record's key ID is the one they were signed with,
-- the only place it was kept.
update events set key_id = (document::jsonb) #>> '{signature,keyId}';
alter table events alter column key_id set not null;

create table event_admission_keys (
  key_id            text primary key,
  organization_id   text not null,
  principal_type    text not null,
  principal_id      text not null,
  accepted_by_type  text not null,
  accepted_by_id    text not null
);
-- The same for those Events: signed and accepted by the Group Authority service they name.
insert into event_admission_keys (key_id, organization_id, principal_type, principal_id, accepted_by_type, accepted_by_id)
select distinct on (e.key_id) e.key_id, o.organization_id,
       (e.document::jsonb) #>> '{acceptedBy,type}', (e.document::jsonb) #>> '{acceptedBy,id}',
       (e.document::jsonb) #>> '{acceptedBy,type}', (e.document::jsonb) #>> '{acceptedBy,id}'
from events e cross join (select organization_id from organization_state order by organization_id limit 1) o
order by e.key_id, e.group_id, e.sequence;
