-- The read API's `GET /v1/me` (src/store/sql/readerGroups.ts) lists every Group one Principal
-- holds a Membership in, across the Organization: without this index that is a scan of every
-- aggregate of every Group. Memberships only, keyed by the member as the query names it.
create index aggregates_members on aggregates ((document -> 'member' ->> 'id'), (document -> 'member' ->> 'type'))
  where aggregate_type = 'membership';
