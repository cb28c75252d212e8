/**
 * Whether an Agent Card satisfies a Work Contract's required capabilities (§6.1, §10.3). The
 * Organization vouches for the card's capabilities, so the card, never the candidate's own
 * claim, is what is matched. A requirement names a capability and a minimum Semantic Version:
 * a card version satisfies it with the same major version (a new major is an incompatible
 * upgrade, §6.1) and at least the minimum by SemVer 2.0.0 precedence (build metadata ignored, a
 * pre-release below its release). The versions matched become the assignment's capability pins.
 */

import type { CapabilityRef } from '../documents.js';
import type { AgentFacts } from '../model.js';

interface ParsedVersion {
  readonly core: readonly [number, number, number];
  readonly preRelease: readonly string[];
}

const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([-0-9A-Za-z.]+))?(?:\+[-0-9A-Za-z.]+)?$/;

function parseVersion(text: string): ParsedVersion | undefined {
  const m = SEMVER.exec(text);
  if (m === null) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], preRelease: m[4] === undefined ? [] : m[4].split('.') };
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^[0-9]+$/;
  if (numeric.test(a) && numeric.test(b)) return Math.sign(Number(a) - Number(b));
  if (numeric.test(a)) return -1;
  if (numeric.test(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer 2.0.0 precedence of two parsed versions (§11 of semver.org). */
function precedence(a: ParsedVersion, b: ParsedVersion): number {
  for (let i = 0; i < 3; i++) {
    const order = Math.sign(a.core[i]! - b.core[i]!);
    if (order !== 0) return order;
  }
  if (a.preRelease.length === 0 || b.preRelease.length === 0) return Math.sign(b.preRelease.length - a.preRelease.length);
  for (let i = 0; i < Math.min(a.preRelease.length, b.preRelease.length); i++) {
    const order = compareIdentifiers(a.preRelease[i]!, b.preRelease[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(a.preRelease.length - b.preRelease.length);
}

/** True when card version `offered` satisfies the minimum version `required`. */
export function satisfiesVersion(offered: string, required: string): boolean {
  const have = parseVersion(offered);
  const want = parseVersion(required);
  if (have === undefined || want === undefined) return false;
  return have.core[0] === want.core[0] && precedence(have, want) >= 0;
}

/**
 * The capability pins of `agent` for `required`: for each requirement, the highest version its
 * card declares that satisfies it; `undefined` when any requirement is unmet.
 */
export function capabilityPins(agent: AgentFacts, required: readonly CapabilityRef[]): CapabilityRef[] | undefined {
  const pins: CapabilityRef[] = [];
  for (const requirement of required) {
    const candidates = (agent.capabilities.get(requirement.id) ?? []).filter((v) => satisfiesVersion(v, requirement.version));
    const best = candidates.reduce<string | undefined>((top, v) => (top === undefined || precedence(parseVersion(v)!, parseVersion(top)!) > 0 ? v : top), undefined);
    if (best === undefined) return undefined;
    pins.push({ id: requirement.id, version: best });
  }
  return pins;
}
