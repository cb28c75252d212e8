/** The group module: the Group document, its archival (§7.4) and its Extension Profile pins (§18). */

import { groupArchive } from './groupArchive.js';
import { profilePin } from './profilePins.js';
import { GROUP_SLICE } from './groupSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const GROUP_MODULE = defineModule({
  key: 'group',
  slice: GROUP_SLICE,
  kinds: [
    groupArchive,
    profilePin,
  ],
});
