-- Agent Session Epochs are sharded by Agent on Citus, co-located with the receipts
-- (src/store/citusLayout.ts), no longer a reference table: every batch locks its Agents' rows
-- `for share`, and Citus turns a row lock on a reference table into a lock on the table's one
-- shard as a whole, so batches of different Mission trees and Agents waited for each other and
-- deadlocked (docs/citus.md). On a coordinator where 0021's layout made it a reference table, it
-- becomes a local table again here, and `migrate` distributes it by `agent_id` right after the
-- migrations. On plain PostgreSQL (no Citus) this does nothing.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'citus') then
    if exists (select 1 from pg_dist_partition where logicalrelid = 'agent_sessions'::regclass and partmethod = 'n') then
      perform undistribute_table('agent_sessions');
    end if;
  end if;
end
$$;
