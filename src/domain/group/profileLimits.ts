/** Limits of a Group's Extension Profile pins (§18). */

/**
 * At most this many profile major versions pinned by one Group: a Mission uses a handful of
 * profiles, and every pin is part of the Mission document each Event of the Group may carry.
 * `mission.create`'s payload schema states the same bound.
 */
export const MAX_PINNED_PROFILES = 16;
