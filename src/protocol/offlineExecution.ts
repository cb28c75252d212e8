/**
 * The identity of the bounded offline execution binding (§11.5), shared by the Group Authority,
 * which interprets it, and the agent SDK, which writes it: a critical Command extension whose
 * data is `schemas/offline-execution-binding.schema.json`.
 */

export const OFFLINE_EXECUTION_EXTENSION = 'urn:missionweaveprotocol:extension:bounded-offline-execution';
/** The version written; every 0.1.x is interpreted (a Group pins major versions, §18). */
export const OFFLINE_EXECUTION_VERSION = '0.1.0';

/** The six budget dimensions of a resource-usage delta (§11.5, §12), with the reference runtime's names. */
export interface ResourceUsage {
  readonly financialMicrounits: number;
  readonly modelTokens: number;
  readonly toolCalls: number;
  readonly computeSeconds: number;
  readonly wallClockSeconds: number;
  readonly externalActions: number;
}

/** No usage in any dimension. */
export const NO_USAGE: ResourceUsage = { financialMicrounits: 0, modelTokens: 0, toolCalls: 0, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 };
