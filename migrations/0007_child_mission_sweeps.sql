-- The child-Mission sweeps of the Authority reactor (src/app/reactor/childSweeps.ts) run on every
-- node, again and again; these partial indexes hold only what they look for, so a pass costs in
-- proportion to the child Missions still running, not to every aggregate ever written.

-- Parent WorkItems blocked on a child Mission whose outcome is not settled yet (§10.2, §14). The
-- path names our WorkItem links extension (src/domain/workItem/workItemDocuments.ts).
create index aggregates_unsettled_child_links on aggregates (group_id, aggregate_id)
  where aggregate_type = 'work-item'
    and document ->> 'state' = 'blocked'
    and document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission}' is not null
    and document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,outcome}' is null;

-- Child Missions still running, which a parent's cancellation or failure cancels (§7.1, §14).
create index aggregates_running_child_missions on aggregates (group_id)
  where aggregate_type = 'mission'
    and document #> '{mission,parent}' is not null
    and document #>> '{mission,state}' in ('active', 'awaiting_approval');
