/**
 * Where this Group Authority is known to depart from the spec, one line each, until a fix and
 * the test that shows it land. The conformance report (test/support/conformanceReport.ts) and
 * the README's claim name every one, and no full claim is made while any stands (§22).
 */

export const KNOWN_DEPARTURES: readonly string[] = [];
