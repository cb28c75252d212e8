-- Group Snapshots limited to one Membership's visibility (§8, §16): a late joiner that gets
-- CURSOR_TOO_OLD restores a snapshot of what its Membership may read, never the whole Group.
-- `view_membership_id` names that Membership; null is a whole-Group snapshot (replay, archival),
-- the only kind served to complete visibility and the only kind reused as the Group's latest.
alter table group_snapshots add column view_membership_id text;

create index group_snapshots_views on group_snapshots (group_id, view_membership_id, through_sequence)
  where view_membership_id is not null;
