/**
 * A worker thread of the history seed (curvesSeed.ts): given the job once, it answers each
 * `{ first, last }` with that range's signed rows (curvesSeedRows.ts).
 */

import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { seedRows, type SeedJob } from './curvesSeedRows.js';

const job = workerData as SeedJob;
const keys = {
  owner: { keyId: job.owner.keyId, privateKey: createPrivateKey(job.owner.pem) },
  authority: { keyId: job.authority.keyId, privateKey: createPrivateKey(job.authority.pem) },
};

parentPort?.on('message', (range: { first: number; last: number }) => {
  parentPort?.postMessage(seedRows(job, keys, range.first, range.last));
});
