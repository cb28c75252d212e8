-- The content-addressed Artifact store (§13.1): binary content lives outside the Group Event
-- log, in PostgreSQL by default so that every node serves every Artifact. One row per content
-- hash (an Organization stores one copy of a hash, however often it is uploaded), its bytes in
-- ordered chunks so that neither upload nor download ever holds a whole Artifact in memory.
-- `complete` is set once every chunk is written and the hash of the whole was checked: only a
-- complete content can be published or served.
create table artifact_contents (
  organization_id  text not null,
  content_hash     text not null,
  size_bytes       bigint not null,
  chunk_count      integer not null,
  complete         boolean not null default false,
  -- Who uploaded it first (an Agent ID): its pending uploads are bounded.
  uploaded_by      text not null,
  created_at       text not null,
  primary key (organization_id, content_hash)
);

-- An Agent's uploads, for the bound on its pending ones and their sweep.
create index artifact_contents_uploader on artifact_contents (organization_id, uploaded_by);
-- Incomplete uploads, for the sweep of abandoned ones.
create index artifact_contents_incomplete on artifact_contents (organization_id, created_at) where not complete;

-- Which Groups published a content hash (download authorization, the pending-upload bound):
-- published Artifacts are `artifact` aggregate rows keyed by content hash.
create index aggregates_artifact_hash on aggregates (aggregate_id) where aggregate_type = 'artifact';

create table artifact_chunks (
  organization_id  text not null,
  content_hash     text not null,
  chunk_index      integer not null,
  data             bytea not null,
  primary key (organization_id, content_hash, chunk_index),
  foreign key (organization_id, content_hash) references artifact_contents (organization_id, content_hash) on delete cascade
);
