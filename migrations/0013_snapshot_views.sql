-- Group Snapshots limited to one Membership's visibility (§8, §16): a late joiner that gets
-- CURSOR_TOO_OLD restores a snapshot of what its Membership may read, never the whole Group.
-- `view_membership_id` names that Membership; null is a whole-Group snapshot (replay, archival),
-- the only kind served to complete visibility and the only kind reused as the Group's latest.
alter table group_snapshots add column view_membership_id text;

create index group_snapshots_views on group_snapshots (group_id, view_membership_id, through_sequence)
  where view_membership_id is not null;

-- Redacted renderings of Events (§7.4): after `message.redact`, readers are served the original
-- Event with the redacted content replaced by the tombstone's, signed again by the Group
-- Authority under the same Event ID, sequence and signed time. The `events` row is never touched.
create table event_redactions (
  group_id   text not null references groups (group_id),
  sequence   bigint not null,
  event_id   text not null,
  -- The Event ID of the `message.redacted` tombstone that caused it.
  redacted_by text not null,
  document   text not null,
  primary key (group_id, sequence)
);
