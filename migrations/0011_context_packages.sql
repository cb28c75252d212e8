-- Signed Context Packages (§13.3, §7.2, §8) the Group Authority issued: one row per package,
-- read back by its recipient over HTTPS (src/transport/contextPackageRoute.ts). A package is
-- delivery material for one recipient, not Group history: it is kept beside the Event log, and
-- the Events it summarises stay the authority.
create table context_packages (
  context_package_id  text primary key,
  group_id            text not null references groups (group_id),
  recipient_type      text not null,
  recipient_id        text not null,
  -- 'mission <id>' or 'work-item <id>' (src/domain/context/contextScope.ts): versions count per scope.
  scope_key           text not null,
  version             integer not null check (version >= 1),
  -- What made it due: a Membership at this Membership Epoch (a late joiner, a provisional or
  -- newly activated member), or a replacement Coordinator at this Coordinator Epoch (§7.2).
  cause               text not null check (cause in ('membership', 'coordinator')),
  cause_epoch         integer not null,
  package_hash        text not null,
  -- The signed package as JCS text, served exactly as stored.
  document            text not null,
  created_at          text not null,
  unique (group_id, recipient_type, recipient_id, scope_key, version),
  -- One package per cause: every node's reactor issuing the same one at once stores one.
  unique (group_id, recipient_type, recipient_id, cause, cause_epoch)
);

-- The reactor's sweep (src/app/reactor/contextSweeps.ts) looks for Memberships that may be owed
-- a package: only current members other than the MissionOwner and the Coordinator, whose
-- Memberships start with the Group and need none.
create index aggregates_context_members on aggregates (group_id)
  where aggregate_type = 'membership'
    and document ->> 'state' in ('provisional', 'active')
    and document ->> 'role' not in ('mission_owner', 'coordinator');

-- … and Missions of running Groups whose Coordinator was replaced (§7.2).
create index aggregates_replaced_coordinators on aggregates (group_id)
  where aggregate_type = 'mission'
    and (document #>> '{mission,coordinator,coordinatorEpoch}')::integer > 1
    and document #>> '{mission,state}' in ('active', 'awaiting_approval');
