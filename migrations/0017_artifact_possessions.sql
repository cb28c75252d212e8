-- Who holds which Artifact bytes (§4.9, §13.3: Group content does not enter another Mission's
-- context by default). An Agent proves it holds a content by uploading it — the body is read and
-- hashed even when the Organization already stores that hash — and each such Agent is recorded
-- here, not only the first uploader. `artifact.publish` takes a hash only from a publisher that
-- holds it (or may read a Group that published it, an explicit reuse its Event records), and a
-- download is served only through a publication whose publisher held the content.
create table artifact_possessions (
  organization_id  text not null,
  content_hash     text not null,
  agent_id         text not null,
  recorded_at      text not null,
  primary key (organization_id, content_hash, agent_id),
  foreign key (organization_id, content_hash) references artifact_contents (organization_id, content_hash) on delete cascade
);

-- Before this table only the first uploader of a content was known; it held the bytes.
insert into artifact_possessions (organization_id, content_hash, agent_id, recorded_at)
select organization_id, content_hash, uploaded_by, created_at from artifact_contents where complete;
