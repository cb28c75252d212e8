/**
 * The Agents a WorkItem Event is addressed to, declared by its Event type (`addressees`) for
 * delivery's attention filters (§8):
 * the candidates of an offer (§10.3: "the Worker receives an expiring offer"), the owner of the
 * WorkItem it carries, the assignee that won it, and the holder of every lease the Event carries
 * at its top level (a lease granted, renewed, released, revoked or expired: §11.3, "timeout
 * expires it; Session replacement, reassignment, cancellation, and failure revoke it"). Reading
 * lease-shaped members rather than named ones keeps an Event kind added later (the Authority's
 * lease expiry, offline reconciliation) addressed by declaring this rule, without a change here.
 * It reads the payload as `unknown`: a stored Event is trusted, but the rule stays total.
 *
 * Mission Events that carry a lease (the Coordinator lease) or a WorkItem declare it too, so the
 * Coordinator hears of its own lease as a Worker does.
 *
 * The closed-lease history a WorkItem keeps in its extension is not read: a former owner is told
 * once, by the Event that fenced it, not by every Event of the WorkItem after that.
 */

/** The members this module reads; everything else in a payload is ignored. */
export interface WorkPayloadShape {
  candidateAgentIds?: unknown;
  assigneeId?: unknown;
  workItem?: { owner?: { agentId?: unknown } };
}

/**
 * Addressees kept per Event. An offer names at most 256 candidates (work.offer schema) and an
 * Event carries a handful of leases, so this is never reached by a valid Event; it bounds what a
 * malformed one could make each subscription scan for every live Event it is offered.
 */
const MAX_ADDRESSEES = 512;

function leaseHolder(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const lease = value as { leaseType?: unknown; holderAgentId?: unknown };
  return typeof lease.leaseType === 'string' && typeof lease.holderAgentId === 'string' ? lease.holderAgentId : undefined;
}

/** The Agent IDs a payload addresses, without repeats, at most MAX_ADDRESSEES. */
export function workAddressees(value: unknown): readonly string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const payload = value as WorkPayloadShape & Record<string, unknown>;
  const found = new Set<string>();
  const add = (id: unknown) => {
    if (typeof id === 'string' && found.size < MAX_ADDRESSEES) found.add(id);
  };
  if (Array.isArray(payload.candidateAgentIds)) for (const id of payload.candidateAgentIds.slice(0, MAX_ADDRESSEES)) add(id);
  add(payload.assigneeId);
  add(payload.workItem?.owner?.agentId);
  for (const value of Object.values(payload)) {
    if (Array.isArray(value)) for (const item of value.slice(0, MAX_ADDRESSEES)) add(leaseHolder(item));
    else add(leaseHolder(value));
  }
  return [...found];
}
