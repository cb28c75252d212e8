-- Extension Profiles the Organization approved (§18) and an operator registered
-- (`missionweave profile add`, src/app/extensionProfiles.ts): one row per profile URI and
-- semantic version. The signed document is kept as JCS text, served and re-verified exactly as
-- stored; the other columns are what a Group's pin is checked against. A version is registered
-- once: the same document again is a no-op, another document under it is refused.
create table extension_profiles (
  profile_uri     text not null,
  version         text not null,
  -- The semantic version's major: what a Group pins (mission.schema.json, `pinnedProfiles`).
  major_version   integer not null check (major_version >= 0),
  critical        boolean not null,
  signing_hash    text not null,
  document        text not null,
  registered_at   text not null,
  primary key (profile_uri, version)
);
