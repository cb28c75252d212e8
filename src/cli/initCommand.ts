/**
 * `missionweave init --dir DIR [--organization ID] [--host H] [--port N]`: creates the
 * Organization's services (Agent Registry and Group Authority) with their keys, the context
 * generator Agent with its key (the Agent that signs Context Packages, §13.3), a development TLS
 * certificate and the configuration; binds the service keys in the Registry and registers the
 * generator's Agent Card. Running it again changes nothing and prints the same summary; on a
 * folder made before the generator existed it adds the generator.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import selfsigned from 'selfsigned';
import { DEFAULT_FRESHNESS } from '../app/limits.js';
import { isUri } from '../protocol/identifier.js';
import { generatePrivateKey, publicKeyBase64url } from '../protocol/signing/signDocument.js';
import { openAuthority, registerFolderContextGenerator, registerFolderProfiles } from '../server.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { Home, type HomeConfig, type ServiceConfig } from '../home/home.js';

function newService(home: Home, name: string, id: string): ServiceConfig {
  const privateKey = generatePrivateKey();
  const privateKeyFile = `keys/${name}.pem`;
  home.writePrivateKey(privateKeyFile, privateKey);
  return { id, keyId: `urn:uuid:${randomUUID()}`, privateKeyFile };
}

async function developmentCertificate(home: Home, host: string): Promise<HomeConfig['tls']> {
  const tls = { certFile: 'tls/cert.pem', keyFile: 'tls/key.pem' };
  if (existsSync(home.path(tls.certFile))) return tls;
  const names = [...new Set(['localhost', host])];
  // ECDSA P-256: the server signs once per full TLS handshake, 22 µs here against 288 µs for
  // RSA-2048 (`openssl speed`), and every session opened, reconnect storms included, pays it.
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'missionweave development' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 825 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.filter((n) => !/^[\d.]+$/.test(n)).map((value) => ({ type: 2 as const, value })),
          { type: 7 as const, ip: '127.0.0.1' },
          ...names.filter((n) => /^[\d.]+$/.test(n) && n !== '127.0.0.1').map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  mkdirSync(home.path('tls'), { recursive: true });
  writeFileSync(home.path(tls.certFile), pems.cert);
  writeFileSync(home.path(tls.keyFile), pems.private, { mode: 0o600 });
  return tls;
}

function contextGeneratorSummary(home: Home): Record<string, unknown> {
  const generator = home.contextGenerator();
  return generator === undefined ? {} : { contextGenerator: { id: generator.principal.id, keyId: generator.key.keyId } };
}

function summary(home: Home, config: HomeConfig): Record<string, unknown> {
  return {
    directory: home.directory,
    organizationId: config.organizationId,
    // The Organization's published Registry key: whoever holds it checks the signed Registry
    // snapshot (`GET /v1/registry`, `registry export`) without trusting this node.
    registry: { id: config.services.registry.id, keyId: config.services.registry.keyId, publicKey: publicKeyBase64url(home.privateKey(config.services.registry.privateKeyFile)) },
    authority: { id: config.services.authority.id, keyId: config.services.authority.keyId },
    ...contextGeneratorSummary(home),
    tls: { certFile: home.path(config.tls.certFile) },
    database: config.databaseUrl === undefined ? 'embedded' : 'configured',
  };
}

/** Creates the directory if needed; returns its configuration. */
export async function ensureHome(home: Home, options: { organization?: string; host?: string; port?: number; databaseUrl?: string } = {}): Promise<HomeConfig> {
  if (!home.exists()) {
    const organizationId = options.organization ?? `urn:missionweave:organization:${randomUUID()}`;
    if (!isUri(organizationId)) throw new UsageError('--organization must be an absolute URI');
    const host = options.host ?? '127.0.0.1';
    mkdirSync(home.directory, { recursive: true });
    const config: HomeConfig = {
      organizationId,
      services: {
        registry: newService(home, 'registry', 'urn:missionweave:service:registry'),
        authority: newService(home, 'authority', 'urn:missionweave:service:group-authority'),
      },
      tls: await developmentCertificate(home, host),
      server: { host, port: options.port ?? 8443 },
      freshness: DEFAULT_FRESHNESS,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    };
    home.writeJson('config.json', config);
  }
  const config = home.config();
  home.ensureContextGenerator();
  const running = await openAuthority(home);
  try {
    // Keys are valid from the second they are bound (whole seconds keep the text short).
    const validFrom = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    for (const service of [config.services.registry, config.services.authority]) {
      if (running.authority.registry.current.registry.resolve(service.keyId) !== undefined) continue;
      await running.authority.enrolKey({
        keyId: service.keyId,
        principal: { type: 'service', id: service.id },
        algorithm: 'Ed25519',
        publicKey: publicKeyBase64url(home.privateKey(service.privateKeyFile)),
        validFrom,
        validityHistory: [],
      });
    }
    // The Registry service's key is bound now: it issues the generator's card.
    await registerFolderContextGenerator(home, running.authority, running.pool);
    // Parley v1 and any other profile this node's code serves, ready to pin (§18).
    await registerFolderProfiles(home, running.authority, running.pool);
  } finally {
    await running.close();
  }
  return config;
}

export async function initCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { dir: 'value', organization: 'value', host: 'value', port: 'value' });
  const home = new Home(stringOption(args, 'dir') ?? '.missionweave');
  const port = stringOption(args, 'port');
  if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new UsageError('--port must be a number');
  const config = await ensureHome(home, {
    ...(stringOption(args, 'organization') === undefined ? {} : { organization: stringOption(args, 'organization') as string }),
    ...(stringOption(args, 'host') === undefined ? {} : { host: stringOption(args, 'host') as string }),
    ...(port === undefined ? {} : { port: Number(port) }),
  });
  process.stdout.write(`${JSON.stringify(summary(home, config))}\n`);
  return 0;
}
