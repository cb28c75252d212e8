/**
 * Helpers of examples/work-handover.mjs: who the Agents are (an operator directory or explicit
 * files), the Work Contract and selection basis of its WorkItem, reading a child's JSON lines,
 * and waiting for a condition.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const env = (name) => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};
const required = (name) => {
  const value = env(name);
  if (value === undefined) throw new Error(`missing ${name}`);
  return value;
};

/** The WebSocket endpoint `missionweave serve` recorded in the home's node.json (it may pick any port). */
function runningNodeUrl(home) {
  try {
    return JSON.parse(readFileSync(join(home, 'node.json'), 'utf8')).url;
  } catch {
    return undefined;
  }
}

/** The Group Authority's wss URL and the CA file to trust: MW_URL / MW_CA_FILE, else from MW_HOME. */
export function server() {
  const home = env('MW_HOME');
  if (home === undefined) return { url: required('MW_URL'), caFile: required('MW_CA_FILE') };
  const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));
  return { url: env('MW_URL') ?? runningNodeUrl(home) ?? `wss://${config.server.host}:${config.server.port}`, caFile: env('MW_CA_FILE') ?? join(home, 'tls', 'cert.pem') };
}

/** One Agent (`role` is COORDINATOR, WORKER_A, …): MW_<ROLE> as a handle under MW_HOME, else MW_<ROLE>_AGENT_ID, _KEY_ID, _PRIVATE_KEY_FILE. */
export function identity(role) {
  const home = env('MW_HOME');
  const handle = env(`MW_${role}`);
  if (home !== undefined && handle !== undefined) {
    const record = JSON.parse(readFileSync(join(home, 'principals', `${handle}.json`), 'utf8'));
    return { agentId: record.id, keyId: record.keyId, privateKeyFile: join(home, record.privateKeyFile) };
  }
  return { agentId: required(`MW_${role}_AGENT_ID`), keyId: required(`MW_${role}_KEY_ID`), privateKeyFile: required(`MW_${role}_PRIVATE_KEY_FILE`) };
}

/** A complete Work Contract (§10.1) due tomorrow, requiring `capability`. */
export function workContract(capability) {
  return {
    contractVersion: 1,
    goal: 'Compute the answer and prove it.',
    requiredDeliverables: [{ deliverableId: 'answer', description: 'The answer as JSON.', mediaType: 'application/json', schema: 'urn:missionweave:schema:answer' }],
    acceptanceCriteria: [{ criterionId: 'answer-correct', description: 'The answer is recomputed identically.', evidenceRequired: ['deterministic_test'] }],
    inputArtifacts: [],
    dependencyWorkItemIds: [],
    allowedResources: [],
    requiredCapabilities: [capability],
    deadline: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    requestedUrgency: 'normal',
    businessImpact: 'Shows that a fenced Worker cannot complete work.',
    retryPolicy: { maxAttempts: 2, backoff: 'none', maxDelay: 'PT1M', retryableFailures: ['TRANSIENT_TOOL_FAILURE'] },
    budget: { currency: 'EUR', financialLimit: 10 },
    sideEffectRisk: 'none',
    executionApproval: 'not_required',
  };
}

/** The structured basis of an offer (§10.3). */
export function selectionBasis(capability) {
  return {
    requiredCapabilities: [capability],
    verifiedMatches: [capability],
    authorizationEligible: true,
    availabilityEstimate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    expectedCost: 1,
    reliabilityEvidence: [],
    policyRulesApplied: ['single-candidate'],
  };
}

/** Calls `onLine` with each JSON line of a stream (other lines are ignored). */
export function lines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const text = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      try {
        onLine(JSON.parse(text));
      } catch {
        // Not a JSON line: not ours to read.
      }
    }
  });
}

/** Resolves with the first truthy value of `check` (polled), or rejects after `timeoutMs`. */
export async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
