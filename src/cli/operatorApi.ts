/**
 * What the CLI and a node agree on for the operator route (operatorRoute.ts, operatorForward.ts):
 * its path and the commands it runs. Apart, so that the CLI's side loads none of the node's.
 */

export const OPERATOR_PATH = '/v1/operator/cli';
export const OPERATOR_VERBS: ReadonlySet<string> = new Set(['command', 'replay', 'audit', 'registry', 'tree']);
