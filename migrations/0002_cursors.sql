-- Durable Cursors reported by ACK frames (§16): the highest contiguous sequence an Agent has
-- processed in a Group. They permit delivery cleanup; they never delete history.
create table agent_cursors (
  group_id    text not null references groups (group_id),
  agent_id    text not null,
  sequence    bigint not null check (sequence >= 0),
  updated_at  text not null,
  primary key (group_id, agent_id)
);
