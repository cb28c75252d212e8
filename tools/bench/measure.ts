/**
 * Throughput measurement for benchmark scripts: run an operation in batches for a fixed time,
 * several rounds, interleaved with the other operations, and keep the median rate.
 */

export interface Rate {
  readonly name: string;
  readonly perSecond: number;
}

function rateOnce(operation: () => unknown, millis: number): number {
  let count = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(millis) * 1_000_000n;
  let elapsed = 0n;
  do {
    for (let i = 0; i < 64; i++) operation();
    count += 64;
    elapsed = process.hrtime.bigint() - start;
  } while (elapsed < budget);
  return count / (Number(elapsed) / 1e9);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Measures every operation `rounds` times in interleaved order; returns median rates. */
export function measureRates(operations: Record<string, () => unknown>, rounds = 5, millis = 400): Rate[] {
  const samples = new Map<string, number[]>(Object.keys(operations).map((name) => [name, []]));
  for (const [, operation] of Object.entries(operations)) rateOnce(operation, 100);
  for (let round = 0; round < rounds; round++) {
    for (const [name, operation] of Object.entries(operations)) {
      samples.get(name)?.push(rateOnce(operation, millis));
    }
  }
  return [...samples].map(([name, values]) => ({ name, perSecond: median(values) }));
}
