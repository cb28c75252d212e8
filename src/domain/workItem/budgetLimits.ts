/**
 * The budget ledger's limits (§12, §14), each with why it has its value.
 */

/**
 * Most ancestor Groups one charge updates. A charge locks, loads and appends to every Group of
 * its Mission's ancestry in one transaction, so the chain length is the work one usage record
 * can cause; the child-Mission depth policy (§14, a configured default with human approval
 * beyond it) keeps real trees far shallower. A Command whose Mission sits deeper is refused
 * rather than charged to a truncated ancestry.
 */
export const MAX_LEDGER_ANCESTRY = 32;
