-- First-Admission Records of Signed Documents that arrive inside Commands: the Approval of a
-- `mission.approve`, the Agent Card of a registration (§6.4). The logical key is
-- (Organization, signing hash); a record is appended once, returned on every later admission of
-- the same document, and never replaced: the same bytes under another key or Principal conflict.
create table embedded_admissions (
  organization_id      text not null,
  signing_hash         text not null,
  admission_record_id  text not null unique,
  document_kind        text not null,
  key_id               text not null,
  principal_type       text not null,
  principal_id         text not null,
  trusted_accepted_at  text not null,
  accepted_by_id       text not null,
  -- The Command that carried the document when it was first admitted.
  action_id            text not null,
  primary key (organization_id, signing_hash)
);
