/**
 * What `get_manifest` publishes of Parley (seed « Transport et découverte »: the version, the
 * limits, the speech acts, the states and the profiles — enough to take part without
 * documentation). Pure data, built from the same tables the deciders use.
 */

import { LABELS } from './authority.js';
import { CLAIM_ACTS, PROOF_KINDS } from './claimEnvelope.js';
import { PARLEY_NAMESPACE, PARLEY_URI } from './parleyProfile.js';
import { parleyLimits } from './parleyLimits.js';
import { DIALECTIC_REFUSALS, PARLEY_REFUSALS } from './parleyRefusals.js';
import { FORWARD_STATES, SIDE_ENDS } from './parleyTypes.js';
import { ACT_RULES, SPEECH_ACTS } from './speechActs.js';

export function parleyManifest() {
  return {
    parley: '1',
    profile: PARLEY_URI,
    commands: { post: `${PARLEY_NAMESPACE}post`, claim: `${PARLEY_NAMESPACE}claim` },
    acts: SPEECH_ACTS.map((name) => ({ name, ...ACT_RULES[name] })),
    states: { forward: FORWARD_STATES, sideEnds: SIDE_ENDS },
    /** How an author is shown: the lock right is visible as « KI · <label> ». */
    labels: LABELS,
    limits: parleyLimits,
    /** Every reason a refusal carries (`details.reason`), with its §19 code. */
    refusals: PARLEY_REFUSALS,
    profiles: {
      dialectic: {
        acts: CLAIM_ACTS,
        statuses: ['unverified', 'supported', 'verified', 'refuted', 'superseded'],
        proofKinds: PROOF_KINDS,
        refusals: DIALECTIC_REFUSALS,
      },
    },
  } as const;
}
