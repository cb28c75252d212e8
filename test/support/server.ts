/**
 * A real Group Authority node for end-to-end tests: the harness's authority behind a TLS 1.3
 * wss/HTTPS listener on port 0, with a self-signed certificate for 127.0.0.1.
 */

import pino, { type Logger } from 'pino';
import selfsigned from 'selfsigned';
import { afterAll } from 'vitest';
import { startListener, type RunningListener } from '../../src/transport/listener.js';
import type { TransportLimits } from '../../src/transport/limits.js';
import { contextGeneratorOf, registerContextGenerator } from '../../src/app/context/contextGenerator.js';
import { GroupAccess } from '../../src/app/groupAccess.js';
import type { GroupAuthority } from '../../src/app/groupAuthority.js';
import type { AuthoritySettings } from '../../src/app/settings.js';
import { generatePrivateKey } from '../../src/protocol/signing/signDocument.js';
import type { Pool } from '../../src/store/pool.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { Harness } from './harness.js';
import type { AnyExtensionProfile } from '../../src/domain/kinds/profile.js';
import { NODE_READ_SIDES } from '../../src/cli/nodeReadSides.js';
import { readSideRoutes, type ProfileReadSide } from '../../src/cli/readSide.js';

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

let certificate: Promise<TestCertificate> | undefined;

export function testCertificate(): Promise<TestCertificate> {
  certificate ??= selfsigned
    .generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7 as const, ip: '127.0.0.1' }, { type: 2 as const, value: 'localhost' }] }],
    })
    .then((pems) => ({ cert: pems.cert, key: pems.private }));
  return certificate;
}

export interface TestServer {
  readonly db: TestDatabase;
  readonly harness: Harness;
  readonly listener: RunningListener;
  readonly url: string;
  readonly httpsUrl: string;
  readonly ca: string;
}

/**
 * Starts a node on a listener of its own, serving the routes of the node's profile read sides as
 * `serve` does (and those of `readSides`); stops it after the file's tests.
 */
export async function startNode(authority: GroupAuthority, pool: Pool, url: string, limits: Partial<TransportLimits> = {}, logger?: Logger, readSides: readonly ProfileReadSide[] = []): Promise<RunningListener> {
  const tls = await testCertificate();
  const groups = new GroupAccess(pool, authority.settings, authority.kinds);
  const listener = await startListener({
    host: '127.0.0.1',
    port: 0,
    tls,
    limits,
    databaseUrl: url,
    groups,
    routes: await readSideRoutes([...NODE_READ_SIDES, ...readSides], groups),
    authority,
    logger: logger ?? pino({ level: process.env['MW_LOG_LEVEL'] ?? 'silent' }),
    clock: authority.clock,
    service: { principal: authority.settings.services.authority, key: authority.settings.authorityKey },
  });
  afterAll(() => listener.close());
  return listener;
}

/**
 * A database, a harness (Organization, keys) and one listening node (logging to `options.logger`
 * if given); with `contextGenerator`, the Organization's context generator Agent is configured and
 * registered as `serve` does, so the Authority reactor issues Context Packages.
 */
export async function startTestServer(
  limits: Partial<TransportLimits> = {},
  options: { readonly logger?: Logger; readonly settings?: Partial<AuthoritySettings>; readonly contextGenerator?: boolean; readonly profiles?: readonly AnyExtensionProfile[]; readonly readSides?: readonly ProfileReadSide[] } = {},
): Promise<TestServer> {
  const { logger, settings = {} } = options;
  const db = await createTestDatabase({ poolSize: 16 });
  const generator = options.contextGenerator === true ? contextGeneratorOf(generatePrivateKey()) : undefined;
  // The node runs as `serve` does: Commands verified and Events signed on a crypto worker.
  const harness = await Harness.start(db.pool, { cryptoWorkers: 1, ...(generator === undefined ? {} : { contextGenerator: generator }), ...settings }, undefined, options.profiles);
  afterAll(() => harness.authority.close());
  if (generator !== undefined) await registerContextGenerator(harness.authority, db.pool, { generator, registryKey: harness.registry.key, endpoint: 'wss://127.0.0.1:8443' });
  const listener = await startNode(harness.authority, db.pool, db.url, limits, logger, options.readSides);
  return { db, harness, listener, url: listener.url, httpsUrl: listener.httpsUrl, ca: (await testCertificate()).cert };
}
