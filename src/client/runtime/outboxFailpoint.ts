/**
 * Fault injection for the durable outbox's restart tests, off unless a process arms it: the
 * `missionweave worker` and `mcp` commands arm it from `MW_TEST_OUTBOX_DIE` (test only, never set
 * in production), as `missionweave serve` arms its Group-commit failpoint (app/failpoints.ts).
 *
 * - `kept:<kind>`: the process kills itself (SIGKILL) right after a Command of that kind was
 *   signed and written to the outbox, before it is sent — the bytes survive, the Authority never
 *   saw them;
 * - `answered:<kind>`: right after the Authority accepted it and before the answer is recorded —
 *   the row stays `sent`, the Authority applied it.
 *
 * Each fires once per process. Nothing listens and nothing is armed otherwise.
 */

export type OutboxPoint = 'kept' | 'answered';

let armed: { point: OutboxPoint; kind: string } | undefined;

/** Arms the failpoint `spec` (`kept:work.submit`, `answered:work.checkpoint`, …); throws on any other text. */
export function armOutboxFailpoint(spec: string): void {
  const match = /^(kept|answered):([a-z_.]+)$/.exec(spec);
  if (match === null) throw new Error(`MW_TEST_OUTBOX_DIE is kept:KIND or answered:KIND (got ${spec})`);
  armed = { point: match[1] as OutboxPoint, kind: match[2] as string };
}

/** Called at each point of the outbox; kills the process outright when armed for it. */
export function outboxFailpoint(point: OutboxPoint, kind: string): void {
  if (armed?.point !== point || armed.kind !== kind) return;
  armed = undefined;
  process.kill(process.pid, 'SIGKILL');
}
