/**
 * One schema-valid example payload per Command kind (schemas/payloads/<kind>.schema.json),
 * derived from the core modules: each kind's entry carries its example (`KindExamples`, beside
 * the kind in its module's `*Examples.ts`), so a new core kind adds no line here.
 *
 * The examples tell one story — a billing-ledger migration Mission (`exampleStory.ts`) — so ids
 * line up across kinds. Tests that mutate an example must clone it first (`structuredClone`).
 */

import { CORE_MODULES } from '../../src/domain/coreModules.js';
import type { KindExamples } from '../../src/domain/kinds/kindTypes.js';

export { EXAMPLE_BUDGET, EXAMPLE_HASHES, EXAMPLE_IDS, exampleSignature } from '../../src/domain/kinds/exampleStory.js';
export { EXAMPLE_APPROVAL } from '../../src/domain/mission/missionExamples.js';
export { EXAMPLE_ARTIFACT } from '../../src/domain/artifact/artifactExamples.js';
export { EXAMPLE_AGENT_CARD } from '../../src/domain/organization/organizationExamples.js';
export { EXAMPLE_GROUP_SNAPSHOT } from '../../src/domain/group/groupExamples.js';
export { EXAMPLE_WORK_CONTRACT } from '../../src/domain/workItem/workExamples.js';
export { EXAMPLE_EVIDENCE, EXAMPLE_FAILURE_EVIDENCE, EXAMPLE_REVIEW_EVIDENCE } from '../../src/domain/workItem/workExecutionExamples.js';

export type PayloadExample = Record<string, unknown>;

/** Every core kind's examples, by kind (a kind without one is missing here; a test says so). */
export const KIND_EXAMPLES: Readonly<Record<string, KindExamples>> = Object.fromEntries(
  CORE_MODULES.flatMap((module) => module.kinds).flatMap((entry) => (entry.examples === undefined ? [] : [[entry.kind, entry.examples]])),
);

/** Every core kind's example payload, by kind. */
export const PAYLOAD_EXAMPLES: Readonly<Record<string, PayloadExample>> = Object.fromEntries(
  Object.entries(KIND_EXAMPLES).map(([kind, examples]) => [kind, examples.payload as PayloadExample]),
);
