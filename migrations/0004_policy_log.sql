-- The protected audit record of refused Signed Documents (§6.4): every signature or admission
-- failure keeps its first failing semantic stage and stable reason here, never on the wire. The
-- Policy Log of a Group Snapshot references these rows by `entry_id`.
--
-- Everything named `claimed_*` was read from the refused document before (or without) its
-- signature verifying: an attacker's words, kept for the auditor, never trusted. A row with
-- `occurrences > 1` summarizes refusals that arrived while the in-memory buffer was full.
create table policy_log (
  position          bigint generated always as identity primary key,
  entry_id          text not null unique,
  occurred_at       timestamptz not null,
  last_occurred_at  timestamptz not null,
  occurrences       integer not null default 1 check (occurrences >= 1),
  stage             text not null,
  reason            text not null,
  code              text not null,
  transport         text not null check (transport in ('wss', 'https', 'hello', 'cli')),
  address           text,
  claimed_actor_type text,
  claimed_actor_id   text,
  claimed_key_id     text,
  claimed_action_id  text,
  claimed_kind       text,
  claimed_group_id   text,
  signing_hash      text,
  check (last_occurred_at >= occurred_at)
);

create index policy_log_by_time on policy_log (occurred_at, position);
create index policy_log_by_group on policy_log (claimed_group_id, occurred_at, position) where claimed_group_id is not null;

-- Append-only: an audit record that can be edited proves nothing. Rows are only ever inserted.
create function policy_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'policy_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;

create trigger policy_log_no_update_or_delete before update or delete on policy_log
  for each row execute function policy_log_append_only();
create trigger policy_log_no_truncate before truncate on policy_log
  for each statement execute function policy_log_append_only();
