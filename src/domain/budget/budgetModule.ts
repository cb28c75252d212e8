/** The budget module: usage records and budget revisions (§12); budgets live in the Mission and WorkItem documents, so it owns no slice of its own. */

import { resourceUsageRecord } from './resourceUsageRecord.js';
import { budgetRevise } from './budgetRevise.js';
import { defineModule } from '../kinds/domainModule.js';

export const BUDGET_MODULE = defineModule({
  key: 'budget',
  kinds: [
    resourceUsageRecord,
    budgetRevise,
  ],
});
