/**
 * The bounds of a Context Package (§13.3), each named once with why it has its value. A package
 * is built by the Group Authority from a Group its members grow, so every list in it is capped
 * below the schema's own ceiling (`schemas/context-package.schema.json`): a package that fails
 * its own schema could not be verified by its recipient. Past a cap the newest entries are kept,
 * since a joiner acts on what is current, and the summary says how many were left out.
 */

/**
 * Events one package summarises (its source range). A package is a summary, never a replacement
 * for history (§13.3): older Events stay readable by ID. 2,000 Events is far more than a joiner
 * needs to orient itself, and reading and parsing them is a few megabytes at most, once per
 * Membership Epoch or Coordinator Epoch.
 */
export const MAX_SOURCE_EVENTS = 2_000;

/** Decisions listed (the schema allows 256): one per accepted transition, newest kept. */
export const MAX_DECISIONS = 200;

/** Constraints listed (the schema allows 256): the Mission's terms and its WorkItems' contracts. */
export const MAX_CONSTRAINTS = 200;

/** Unresolved questions listed (the schema allows 256). */
export const MAX_UNRESOLVED_QUESTIONS = 200;

/** Artifact hashes listed (the schema allows 1,000): the newest published ones in scope. */
export const MAX_ARTIFACT_HASHES = 500;

/**
 * Characters of one text taken from Group content (a Mission objective, a WorkItem goal, a block
 * reason) into a line of the package. The schema caps a line at 4,000; a quoted text is cut well
 * below so that the line's own words always fit.
 */
export const MAX_QUOTED_CHARS = 1_000;

/** Characters of the summary (the schema allows 50,000). */
export const MAX_SUMMARY_CHARS = 8_000;
