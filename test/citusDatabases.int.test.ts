/**
 * The Citus test harness itself: test files create their databases on the one cluster at the same
 * time, and `citus_add_node` alters the connecting role in the cluster-wide `pg_authid` on each
 * worker, so concurrent creations raced ("tuple concurrently updated", surfaced as "failure on
 * connection marked as essential"; CI on Dec 5, 02:54 UTC). Six at once must all succeed.
 * Skipped, saying why, without a cluster.
 */

import { expect, it } from 'vitest';
import { CITUS_URL, describeOnCitus } from './support/citus.js';
import { citusWorkers, createOnCluster, dropOnCluster } from './support/citusDatabases.js';

describeOnCitus('test databases on a Citus cluster', () => {
  it('are created by six callers at once, each with every worker registered', async () => {
    const workers = (await citusWorkers(CITUS_URL)) ?? [];
    expect(workers.length).toBeGreaterThan(0);
    const names = Array.from({ length: 6 }, (_, i) => `mw_race_${process.pid}_${i}`);
    const created = await Promise.allSettled(names.map((name) => createOnCluster(CITUS_URL, workers, name)));
    try {
      expect(created.filter((c) => c.status === 'rejected').map((c) => String((c as PromiseRejectedResult).reason))).toEqual([]);
    } finally {
      for (const name of names) await dropOnCluster(CITUS_URL, workers, name);
    }
  }, 120_000);
});
