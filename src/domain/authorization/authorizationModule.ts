/** The authorization module: Capability Grants charged against WorkItem budgets (§9.2); it owns no slice of its own. */

import { capabilityGrant } from './capabilityGrant.js';
import { defineModule } from '../kinds/domainModule.js';

export const AUTHORIZATION_MODULE = defineModule({
  key: 'authorization',
  kinds: [
    capabilityGrant,
  ],
});
