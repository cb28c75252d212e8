/** The policy module: cooperation limits and their override grants (§20). */

import { policyGrantCooperationOverride } from './policyGrantCooperationOverride.js';
import { POLICY_SLICE } from './policySlice.js';
import { defineModule } from '../kinds/domainModule.js';
import { countInWindow } from './rateWindows.js';

export const POLICY_MODULE = defineModule({
  key: 'policy',
  slice: POLICY_SLICE,
  kinds: [
    policyGrantCooperationOverride,
  ],
  // Every rate-counted Event enters its actor's window (§20), whichever kind emitted it.
  observe(state, kind, meta) {
    const rateWindows = countInWindow(state.rateWindows, kind, meta);
    return rateWindows === state.rateWindows ? state : { ...state, rateWindows };
  },
});
