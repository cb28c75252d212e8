-- First-Admission Records of Signed Documents presented on their own, not inside a Command
-- (§6.4): an Extension Profile registered by an operator (§18) is admitted like any Signed
-- Document and its record joins the same Admission Log, keyed by (organization, signing hash).
-- Such a record has no carrying Command.
alter table embedded_admissions alter column action_id drop not null;
