/** The artifact module: Artifact manifests published in the Group (§13.1). */

import { artifactPublish } from './artifactPublish.js';
import { ARTIFACT_SLICE } from './artifactSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const ARTIFACT_MODULE = defineModule({
  key: 'artifact',
  slice: ARTIFACT_SLICE,
  kinds: [
    artifactPublish,
  ],
});
