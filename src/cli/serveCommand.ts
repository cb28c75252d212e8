/**
 * `missionweave serve --dir DIR [--host H] [--port N] [--processes P]`: runs one node of the Group Authority —
 * the configured PostgreSQL, or the embedded one in DIR — and, once ready, prints one JSON line
 * with `"url":"wss://host:port/v1/ws"` — the WebSocket endpoint a client connects to, the real
 * port when N is 0 — and `"https":"https://host:port"`, the origin of the HTTPS endpoints.
 * `missionweave start [--dir DIR]` (what `npm start` runs) first initialises DIR when it is new.
 * SIGINT/SIGTERM stop it cleanly; SIGHUP reloads the configured certificate and key (so does a
 * change to their files), for new handshakes only. With `--processes P` (or `MW_SERVE_PROCESSES`) above 1 the node
 * is P processes behind the one listener (serveCluster.ts).
 */

import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { installFailpoints } from '../app/failpoints.js';
import { systemClock } from '../app/settings.js';
import { lendAuthority, openAuthority } from '../server.js';
import { operatorRoutes } from './operatorRoute.js';
import { ensureOperatorToken } from '../home/operatorToken.js';
import { startListener, type RunningListener } from '../transport/listener.js';
import { watchCertificateFiles } from '../transport/certificateFiles.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { UnavailableError } from '../home/usageError.js';
import { Home } from '../home/home.js';
import { forgetRunningNode, recordRunningNode } from '../home/runningNode.js';
import { NODE_READ_SIDES } from './nodeReadSides.js';
import { readSideRoutes } from './readSide.js';
import { ClusterLink } from '../transport/clusterLink.js';
import { shareOfLimits, DEFAULT_LIMITS } from '../transport/limits.js';
import { clusterWorkerSetup, processCount, servePrimary } from './serveCluster.js';
import { ensureHome } from './initCommand.js';
import { tuneHeap } from './heapTuning.js';
import { dataLocation } from './dataLocation.js';
import { cryptoWorkersPerProcess } from '../app/workers/workerLimits.js';

/** Crypto workers of a one-process node, or of one process of a node (its share, set by the primary). */
function cryptoWorkers(): number {
  return cryptoWorkersPerProcess(availableParallelism(), 1, process.env['MW_CRYPTO_WORKERS']);
}

/** `MW_METRICS=off` turns the operator metrics and `GET /metrics` off; anything else leaves them on. */
function metricsOn(): boolean {
  return process.env['MW_METRICS'] !== 'off';
}

/**
 * Refuses at once a port another process listens on, before the database starts (which took
 * seconds, then a trace): one line, exit 69. A port taken in between still fails at listening.
 */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UnavailableError(`port ${port} on ${host} is already in use (another node?); stop it, or choose another port with --port`));
      else resolve(); // anything else (a host not of this machine…) is the listener's to report
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function serve(home: Home, host: string | undefined, port: number | undefined, processes = 1): Promise<number> {
  const heapGrowingPercent = tuneHeap() ?? null;
  const worker = clusterWorkerSetup();
  if (worker === undefined) await checkPortFree(host ?? home.config().server.host, port ?? home.config().server.port);
  if (worker === undefined && processes > 1) return servePrimary(home, processes);
  // Listening from the start: the primary's snapshot of the node's sessions comes first.
  const link = worker === undefined ? undefined : ClusterLink.ofWorker();
  if (process.env['MW_FAILPOINTS'] === '1') installFailpoints(); // `npm run faults` only
  const config = home.config();
  const running = await openAuthority(home, { poolSize: worker?.poolSize ?? 16, settings: { cryptoWorkers: cryptoWorkers(), metrics: metricsOn(), ...worker?.settings }, reactor: true });
  link?.shareMetrics(() => running.authority.metrics.asJson());
  const settings = running.authority.settings;
  const serving: { listener?: RunningListener } = {};
  const certificates = await watchCertificateFiles(home.path(config.tls.certFile), home.path(config.tls.keyFile), (pair) => {
    if (serving.listener === undefined) throw new Error('not listening yet');
    serving.listener.useCertificate(pair);
  }, running.logger);
  const listener = await startListener({
    host: host ?? config.server.host,
    port: port ?? config.server.port,
    tls: certificates.initial,
    databaseUrl: running.database.url,
    groups: running.groups,
    // The operator's CLI commands run here, on this node's database (operatorRoute.ts).
    routes: [...(await readSideRoutes(NODE_READ_SIDES, running.groups)), ...operatorRoutes(ensureOperatorToken(home))],
    authority: running.authority,
    logger: running.logger,
    clock: systemClock,
    service: { principal: settings.services.authority, key: settings.authorityKey },
    ...(worker === undefined || link === undefined ? {} : { limits: shareOfLimits(DEFAULT_LIMITS, worker.processes), cluster: { link, humanSecret: worker.humanSecret } }),
  });
  serving.listener = listener;
  const unlend = lendAuthority(home, running);
  // A renewal that landed while the node was starting is served now; later ones as they come.
  await certificates.reload();
  const reloadCertificate = (): void => void certificates.reload();
  process.on('SIGHUP', reloadCertificate);
  if (link !== undefined) link.tell({ mw: 'ready', url: listener.url, https: listener.httpsUrl, heapGrowingPercent, where: dataLocation(running.database) });
  else {
    recordRunningNode(home, { url: listener.url, https: listener.httpsUrl });
    process.stdout.write(`${JSON.stringify({ status: 'ready', url: listener.url, https: listener.httpsUrl, organizationId: config.organizationId, pid: process.pid, heapGrowingPercent, ...dataLocation(running.database) })}\n`);
  }
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (): void => {
      // SIGINT from a terminal reaches every process of a node, then the primary's SIGTERM.
      if (stopping) return;
      stopping = true;
      void (async () => {
        process.off('SIGHUP', reloadCertificate);
        certificates.close();
        if (link === undefined) forgetRunningNode(home);
        unlend();
        await listener.close();
        await running.close();
        resolve(0);
      })();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function portOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError('--port must be 0–65535');
  return Number(text);
}

export async function serveCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', host: 'value', port: 'value', processes: 'value' });
  return serve(new Home(stringOption(args, 'dir') ?? '.missionweave'), stringOption(args, 'host'), portOption(stringOption(args, 'port')), processCount(stringOption(args, 'processes')));
}

export async function startCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', host: 'value', port: 'value', processes: 'value' });
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  if (!home.exists() && clusterWorkerSetup() === undefined) {
    await ensureHome(home);
    process.stderr.write(`initialised ${home.directory}\n`);
  }
  return serve(home, stringOption(args, 'host'), portOption(stringOption(args, 'port')), processCount(stringOption(args, 'processes')));
}
