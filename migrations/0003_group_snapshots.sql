-- Signed Group Snapshots issued when a Cursor falls outside the online replay window (§16).
-- `body` is the served artifact: the signed snapshot and the aggregate state it hashes.
create table group_snapshots (
  group_id          text not null references groups (group_id),
  snapshot_hash     text not null,
  through_sequence  bigint not null check (through_sequence >= 1),
  body              text not null,
  primary key (group_id, snapshot_hash)
);
