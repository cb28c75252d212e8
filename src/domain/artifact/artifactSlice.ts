/** The artifact module's slice of Group state: the Artifacts published in the Group (§13.1). */

import { mapCodec, type SliceCodec } from '../kinds/domainModule.js';
import type { PublishedArtifact } from './artifactDocuments.js';

export interface ArtifactSlice {
  /** Artifacts published in this Group, by content hash (§13.1). */
  readonly artifacts: ReadonlyMap<string, PublishedArtifact>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends ArtifactSlice {}
}

export const ARTIFACT_SLICE: SliceCodec<ArtifactSlice> = mapCodec<'artifacts', PublishedArtifact>('artifacts', 'artifact', (a) => ({
  id: a.contentHash,
  revision: a.revision,
}));
