/**
 * `node dist-tools/bench/tracingOffCost.js`: what tracing costs a Command when it is off (no
 * OTEL_EXPORTER_OTLP_ENDPOINT), measured on the very functions the Command path calls then:
 * the HTTPS request's `requestTrace` (no `traceparent`), `tracedCommand` with no span and no
 * parent, the `Tracing.on` tests and `endSpan(undefined)`, and the extra async hop of
 * `GroupAuthority.submit` into `submitting`. Prints nanoseconds per Command, best of five runs, to
 * set beside the server CPU per Command of `npm run bench` (hundreds of microseconds).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { endSpan, TRACING_OFF } from '#src/app/tracing/tracing.js';
import { tracedCommand } from '#src/app/tracing/tracedCommand.js';
import type { VerifiedCommand } from '#src/app/verifyCommand.js';
import { requestTrace } from '#src/transport/requestTrace.js';

const ROUNDS = 2_000_000;
const command = { envelope: { kind: 'message.post', actionId: 'urn:uuid:x' }, document: {} } as unknown as VerifiedCommand;
const request = { headers: {}, method: 'POST' } as unknown as IncomingMessage;
const response = {} as unknown as ServerResponse;
const url = new URL('https://localhost/v1/commands');

function syncPart(): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) {
    const trace = requestTrace(TRACING_OFF, request, response, url, undefined);
    const verifying = TRACING_OFF.on ? undefined : undefined;
    endSpan(verifying);
    const traced = tracedCommand(command, trace.origin?.brought, undefined);
    const phases = TRACING_OFF.on ? { started: 0 } : undefined;
    endSpan(undefined);
    if (traced === command && phases === undefined) sink++;
  }
  const ns = Number(process.hrtime.bigint() - started) / ROUNDS;
  if (sink !== ROUNDS) throw new Error('unexpected');
  return ns;
}

async function inner(n: number): Promise<number> {
  return n + 1;
}
async function outer(n: number): Promise<number> {
  if (!TRACING_OFF.on) return inner(n);
  return 0;
}

/** The extra async hop: `outer` (submit → submitting) against calling `inner` directly. */
async function asyncHop(): Promise<number> {
  let total = 0;
  let started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) total += await inner(i);
  const direct = Number(process.hrtime.bigint() - started);
  started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) total += await outer(i);
  const hopped = Number(process.hrtime.bigint() - started);
  if (total === 0) throw new Error('unexpected');
  return Math.max(0, (hopped - direct) / ROUNDS);
}

const syncRuns: number[] = [];
const hopRuns: number[] = [];
for (let run = 0; run < 5; run++) {
  syncRuns.push(syncPart());
  hopRuns.push(await asyncHop());
}
const sync = Math.min(...syncRuns);
const hop = Math.min(...hopRuns);
process.stdout.write(`tracing off, per Command: ${sync.toFixed(1)} ns on the path's tracing calls + ${hop.toFixed(1)} ns for the extra async hop = ${(sync + hop).toFixed(1)} ns (best of 5 × ${ROUNDS.toLocaleString('en')} rounds)\n`);
process.stdout.write(`${JSON.stringify({ tracingOffNsPerCommand: Number((sync + hop).toFixed(1)), syncNs: Number(sync.toFixed(1)), asyncHopNs: Number(hop.toFixed(1)) })}\n`);
