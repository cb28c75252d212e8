/** The organization module: the Organization-scoped kinds (§15.1); no Group, so no slice. */

import { defineModule } from '../kinds/domainModule.js';
import { ORGANIZATION_KINDS } from './organization.js';

export const ORGANIZATION_MODULE = defineModule({ key: 'organization', kinds: ORGANIZATION_KINDS });
