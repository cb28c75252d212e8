/**
 * What `get_manifest` publishes of Parley (seed « Transport et découverte »: the version, the
 * limits, the speech acts, the states and the profiles — enough to take part without
 * documentation). Pure data, built from the same tables the deciders use.
 */

import { CLAIM_ACTS, PROOF_KINDS } from './claimEnvelope.js';
import { PARLEY_NAMESPACE, PARLEY_URI } from './parleyProfile.js';
import { parleyLimits } from './parleyLimits.js';
import { FORWARD_STATES, SIDE_ENDS } from './parleyTypes.js';
import { ACT_RULES, SPEECH_ACTS } from './speechActs.js';

export function parleyManifest() {
  return {
    parley: '1',
    profile: PARLEY_URI,
    commands: { post: `${PARLEY_NAMESPACE}post`, claim: `${PARLEY_NAMESPACE}claim` },
    acts: SPEECH_ACTS.map((name) => ({ name, ...ACT_RULES[name] })),
    states: { forward: FORWARD_STATES, sideEnds: SIDE_ENDS },
    limits: parleyLimits,
    refusals: ['invalid_body', 'thread_authority_missing', 'token_right_missing', 'self_reply', 'thread_closed', 'thread_ended', 'not_forward', 'too_many_steps', 'not_ended', 'nothing_to_confirm', 'unknown_thread', 'unknown_parent', 'parley_limit'],
    profiles: {
      dialectic: {
        acts: CLAIM_ACTS,
        statuses: ['unverified', 'supported', 'verified', 'refuted', 'superseded'],
        proofKinds: PROOF_KINDS,
        refusals: ['claim_settled', 'claim_expired', 'claim_unsupported', 'self_attest', 'already_attested', 'self_verify', 'unknown_claim'],
      },
    },
  } as const;
}
