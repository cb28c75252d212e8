-- The Policy Log also records accepted policy decisions (§20): a Cooperation Override Grant's
-- issuance and its consumption, written in the transaction of the Events that carry them.
-- `event_id` links a record to its accepted Event (the consumption to the target transition);
-- `details` holds the decision's bound members (grant, policy, beneficiary, target Action ID).
-- Such records come from the Authority's own pipeline, not from one transport.
alter table policy_log add column event_id text;
alter table policy_log add column details jsonb;
alter table policy_log drop constraint policy_log_transport_check;
alter table policy_log add constraint policy_log_transport_check check (transport in ('wss', 'https', 'hello', 'cli', 'authority'));
create index policy_log_by_event on policy_log (event_id) where event_id is not null;
