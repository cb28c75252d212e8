/**
 * Which crypto worker gets a request, and how a signing batch is split: pure functions of the
 * workers' unanswered work, so the policy is tested without threads. Fill-first: the
 * lowest-numbered worker under the threshold takes the work, so idle workers stay asleep and a
 * larger pool is never busier than the load needs (issue 16, part 4).
 */

/**
 * The worker for the next request: the first whose unanswered work is under `threshold`; when
 * every one is at or over it, the least loaded (the lowest-numbered among equals).
 */
export function pickWorker(loads: readonly number[], threshold: number): number {
  let least = 0;
  for (let i = 0; i < loads.length; i++) {
    const load = loads[i] as number;
    if (load < threshold) return i;
    if (load < (loads[least] as number)) least = i;
  }
  return least;
}

/**
 * Sizes of the parts a signing batch of `count` documents is split into: as many parts as hold
 * at least `minPart` documents each, at most `workers`, at least one; sizes differ by one at
 * most, larger parts first, and add up to `count`.
 */
export function signParts(count: number, workers: number, minPart: number): number[] {
  if (count <= 0) return [];
  const parts = Math.max(1, Math.min(workers, Math.floor(count / Math.max(1, minPart))));
  const base = Math.floor(count / parts);
  const larger = count % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < larger ? 1 : 0));
}
