#!/usr/bin/env node
/**
 * `node dist/cli/healthcheck.js [--url URL] [--ca FILE]`: the container image's HEALTHCHECK.
 * Exits 0 when `GET URL` answers 200 within HEALTHCHECK_TIMEOUT_MS, else 1 (Docker's
 * "unhealthy") with one line on stderr saying why. The default URL is the node's readiness endpoint on the default port,
 * `https://127.0.0.1:8443/ready` (`/ready` answers 200 only once the node reads its database);
 * `MW_HEALTHCHECK_URL` overrides the default, `--url` overrides both.
 *
 * Node itself makes the request, so the image needs no curl. The node's certificate is the
 * operator folder's self-signed development certificate (`missionweave init`): with `--ca` (or
 * `MW_HEALTHCHECK_CA`) naming it, the check verifies the certificate like any client; without
 * it the check still speaks TLS but does not verify the peer — it asks a loopback address inside
 * its own container whether the node is ready, not who the node is.
 */

import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { parseArgs, stringOption, UsageError } from './args.js';

/**
 * How long one check waits for the answer. Docker's own `--timeout` kills a hung check too; this
 * bound makes the check end first, with a reason in the health log instead of a bare kill.
 */
const HEALTHCHECK_TIMEOUT_MS = 5_000;

const DEFAULT_URL = 'https://127.0.0.1:8443/ready';

function check(url: URL, ca: string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: HEALTHCHECK_TIMEOUT_MS, ...(ca === undefined ? { rejectUnauthorized: false } : { ca }) }, (response) => {
      response.resume();
      resolve(response.statusCode === 200 ? undefined : `${url.href} answered ${String(response.statusCode)}`);
    });
    req.once('timeout', () => {
      req.destroy();
      resolve(`${url.href} did not answer within ${String(HEALTHCHECK_TIMEOUT_MS)} ms`);
    });
    req.once('error', (error) => resolve(`${url.href}: ${error.message}`));
    req.end();
  });
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { url: 'value', ca: 'value' });
  if (args.positionals.length > 0) throw new UsageError('usage: healthcheck [--url URL] [--ca FILE]');
  const url = new URL(stringOption(args, 'url') ?? process.env['MW_HEALTHCHECK_URL'] ?? DEFAULT_URL);
  if (url.protocol !== 'https:') throw new UsageError('--url must be an https URL');
  const caFile = stringOption(args, 'ca') ?? process.env['MW_HEALTHCHECK_CA'];
  const failure = await check(url, caFile === undefined ? undefined : readFileSync(caFile, 'utf8'));
  if (failure === undefined) return 0;
  process.stderr.write(`unhealthy: ${failure}\n`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Docker reads 1 as unhealthy and reserves 2, so a bad argument is unhealthy too.
    process.stderr.write(`unhealthy: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
