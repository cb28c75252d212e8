/**
 * The composition root: the only place that constructs database servers, pools, the Group
 * Authority and network listeners from an operator directory.
 */

import type { Logger } from 'pino';
import pino from 'pino';
import { LOG_REDACTION } from './app/authorization/logRedaction.js';
import { GroupAccess } from './app/groupAccess.js';
import { registerContextGenerator } from './app/context/contextGenerator.js';
import { GroupAuthority } from './app/groupAuthority.js';
import { NODE_CODE_PROFILES, registerNodeProfiles } from './app/nodeProfiles.js';
import { buildKindRegistry } from './domain/coreModules.js';
import { AuthorityReactor } from './app/reactor/authorityReactor.js';
import type { AuthoritySettings } from './app/settings.js';
import type { Home } from './home/home.js';
import { openEmbeddedPostgres, type DatabaseHandle } from './store/embeddedPostgres.js';
import { migrate } from './store/migrate.js';
import { createPool, type Pool } from './store/pool.js';
import { tracingFromEnvironment } from './app/tracing/otlpTracing.js';
import { buildInfo } from './app/metrics/buildInfo.js';
import { hostname } from 'node:os';

export interface RunningAuthority {
  readonly authority: GroupAuthority;
  /** Authorized Group reads, snapshots and Cursors, for the listener. */
  readonly groups: GroupAccess;
  readonly pool: Pool;
  readonly database: DatabaseHandle;
  readonly logger: Logger;
  /** The Authority reactor (lease expiry, Session replacement), on a serving node only. */
  readonly reactor?: AuthorityReactor;
  close(): Promise<void>;
}

/** The configured PostgreSQL, or the embedded one in `<dir>/db` (started or joined). */
export async function openDatabase(home: Home, logger: Logger): Promise<DatabaseHandle> {
  const url = home.databaseUrl();
  if (url !== undefined) return { url, stop: () => Promise.resolve() };
  return openEmbeddedPostgres(home.path('db'), { log: (line) => logger.debug({ postgres: line }) });
}

export interface OpenOptions {
  readonly logger?: Logger;
  readonly settings?: Partial<AuthoritySettings>;
  readonly poolSize?: number;
  /**
   * Runs the Authority reactor (src/app/reactor/): a serving node does; a one-shot operator
   * command (init, enrol a key, replay) does not issue Commands of its own. A serving node first
   * makes sure of the folder's context generator (`registerFolderContextGenerator`), so that a
   * folder made before the generator existed gains it once, at its first start.
   */
  readonly reactor?: boolean;
}

/**
 * Binds the folder's context generator Agent (src/app/context/contextGenerator.ts) in the
 * Registry, with an Agent Card the Registry service issues; idempotent. The Registry service's
 * key must already be bound (`missionweave init` binds it).
 */
export async function registerFolderContextGenerator(home: Home, authority: GroupAuthority, pool: Pool): Promise<void> {
  const { contextGenerator } = authority.settings;
  if (contextGenerator === undefined) throw new Error(`${home.directory} has no context generator key`);
  const config = home.config();
  await registerContextGenerator(authority, pool, {
    generator: contextGenerator,
    registryKey: { keyId: config.services.registry.keyId, privateKey: home.privateKey(config.services.registry.privateKeyFile) },
    endpoint: `wss://${config.server.host}:${config.server.port}`,
  });
}

/**
 * Registers the node's code profiles (Parley v1, disput v0, `app/nodeProfiles.ts`) approved by the folder's
 * Registry service, so that a Group can pin them; idempotent. `init` and a serving node's start
 * call it, as they do for the context generator.
 */
export async function registerFolderProfiles(home: Home, authority: GroupAuthority, pool: Pool): Promise<void> {
  const registry = home.config().services.registry;
  await registerNodeProfiles(authority, pool, {
    principal: { type: 'service', id: registry.id },
    key: { keyId: registry.keyId, privateKey: home.privateKey(registry.privateKeyFile) },
  });
}

/** The Authority a serving node runs for each home, lent to the CLI commands it runs for the operator. */
const served = new Map<string, RunningAuthority>();

/**
 * Lends `running` to every later `openAuthority` of the same home in this process, with a close
 * that does nothing: the operator route (src/cli/operatorRoute.ts) runs CLI commands in the node
 * on its own database pool, instead of each starting PostgreSQL.
 */
export function lendAuthority(home: Home, running: RunningAuthority): () => void {
  served.set(home.directory, running);
  return () => void served.delete(home.directory);
}

/** Opens the database, applies migrations, and starts the Group Authority of a directory. */
export async function openAuthority(home: Home, options: OpenOptions = {}): Promise<RunningAuthority> {
  const lent = served.get(home.directory);
  if (lent !== undefined) return { ...lent, close: () => Promise.resolve() };
  const logger = options.logger ?? pino({ level: process.env['MW_LOG_LEVEL'] ?? 'warn', redact: LOG_REDACTION }, pino.destination(2));
  const database = await openDatabase(home, logger);
  const pool = createPool(database.url, { max: options.poolSize ?? 10 });
  // Spans exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; none made otherwise.
  const tracing = options.settings?.tracing === undefined ? tracingFromEnvironment({ version: buildInfo().version, instance: `${hostname()}/${process.pid}` }) : undefined;
  try {
    await migrate(pool);
    if (options.reactor === true) home.ensureContextGenerator();
    const settings = home.settings({ ...options.settings, ...(tracing === undefined ? {} : { tracing: tracing.tracing }) });
    const authority = await GroupAuthority.start({ pool, settings, logger, kinds: buildKindRegistry(NODE_CODE_PROFILES) });
    if (options.reactor === true) {
      const registered = async (): Promise<void> => {
        await registerFolderContextGenerator(home, authority, pool);
        await registerFolderProfiles(home, authority, pool);
      };
      await registered().catch(async (error: unknown) => {
        await authority.close();
        throw error;
      });
    }
    const reactor = options.reactor === true ? AuthorityReactor.start({ authority, pool, logger }) : undefined;
    return {
      authority,
      groups: new GroupAccess(pool, authority.settings, authority.kinds),
      pool,
      database,
      logger,
      ...(reactor === undefined ? {} : { reactor }),
      close: async () => {
        // The reactor's round in progress submits through the authority: it stops first.
        await reactor?.close();
        // Then the authority: it writes the Policy Log records still buffered.
        await authority.close();
        await pool.end();
        await database.stop();
        // Last: the spans of everything above are exported before the process goes.
        await tracing?.shutdown();
      },
    };
  } catch (error) {
    await tracing?.shutdown();
    await pool.end();
    await database.stop();
    throw error;
  }
}
