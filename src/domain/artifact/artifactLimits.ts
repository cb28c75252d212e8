/**
 * The bounds of published Artifacts, each named once with why it has its value.
 */

/**
 * Artifacts one WorkItem may publish (§17.3 bounded input, §20 runaway controls). A Worker grows
 * this list with its own Commands and every entry is a Group state row read by the later
 * decisions; `work.submit` names at most 1,000 Artifact hashes (its payload schema), so a WorkItem
 * never needs to publish more than it can submit. Past it `artifact.publish` is `RATE_LIMITED`.
 */
export const MAX_ARTIFACTS_PER_WORK_ITEM = 1_000;

/**
 * Data classifications from least to most restricted (`common#/$defs/classification`): a derived
 * Artifact is at least as restricted as its most restricted source (§13.1 provenance; the
 * reference runtime refuses a downgrade the same way).
 */
export const CLASSIFICATION_RANK: Readonly<Record<string, number>> = { public: 0, internal: 1, confidential: 2, restricted: 3 };
