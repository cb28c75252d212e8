/**
 * The identity of the bounded offline execution binding (§11.5), shared by the Group Authority,
 * which interprets it, and the agent SDK, which writes it: a critical Command extension whose
 * data is `schemas/offline-execution-binding.schema.json`.
 */

export const OFFLINE_EXECUTION_EXTENSION = 'urn:missionweaveprotocol:extension:bounded-offline-execution';
/** The version written; every 0.1.x is interpreted (a Group pins major versions, §18). */
export const OFFLINE_EXECUTION_VERSION = '0.1.0';
