-- The Authority reactor's lease sweeps (src/app/reactor/leaseSweeps.ts) read WorkItem rows by
-- their leases every second on every node; these partial expression indexes hold only WorkItems
-- with a current lease, so a sweep reads the due rows and not the Group history.
--
-- Earliest expiry of a WorkItem's current ownership (or blocked) and Execution Lease. Lease
-- timestamps are the canonical UTC text the deciders write (`…T12:00:00.000Z`), which orders as
-- time does; text keeps the expression immutable, as an index needs.
create index aggregates_work_lease_expiry on aggregates ((least(
    document #>> '{extensions,urn:missionweave:extension:work-leases,data,ownership,expiresAt}',
    document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,expiresAt}')))
  where aggregate_type = 'work-item'
    and least(
      document #>> '{extensions,urn:missionweave:extension:work-leases,data,ownership,expiresAt}',
      document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,expiresAt}') is not null;

-- Holder of each current Execution Lease: compared with agent_sessions to find the leases of
-- replaced Sessions (§11.3).
create index aggregates_work_execution_holder on aggregates
    ((document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,holderAgentId}'))
  where aggregate_type = 'work-item'
    and document #>> '{extensions,urn:missionweave:extension:work-leases,data,execution,holderAgentId}' is not null;
