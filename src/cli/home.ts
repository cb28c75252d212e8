/**
 * The operator's directory, made by `missionweave init`: configuration, the Organization
 * services' keys, the development TLS certificate, the Principals added since, and the embedded
 * database. Private keys are PKCS#8 PEM files readable by the owner only.
 */

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AuthoritySettings, FreshnessWindow } from '../app/settings.js';
import type { PrincipalType } from '../protocol/principal.js';
import { UsageError } from './args.js';
import { DEFAULT_MAX_BATCH, DEFAULT_WRITER_CONCURRENCY } from '../app/limits.js';

export interface ServiceConfig {
  readonly id: string;
  readonly keyId: string;
  readonly privateKeyFile: string;
}

export interface HomeConfig {
  readonly organizationId: string;
  readonly services: { readonly registry: ServiceConfig; readonly authority: ServiceConfig };
  readonly tls: { readonly certFile: string; readonly keyFile: string };
  readonly server: { readonly host: string; readonly port: number };
  /** A PostgreSQL URL; absent means the embedded server in `db/`. DATABASE_URL overrides. */
  readonly databaseUrl?: string;
  readonly freshness: FreshnessWindow;
}

/** A Principal added with `agent add` or `human add`. */
export interface PrincipalRecord {
  readonly handle: string;
  readonly type: PrincipalType;
  readonly id: string;
  readonly keyId: string;
  readonly publicKey: string;
  readonly privateKeyFile: string;
  /** Agents only: their signed Agent Card. */
  readonly cardFile?: string;
}

export class Home {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = resolve(directory);
  }

  path(...parts: string[]): string {
    return join(this.directory, ...parts);
  }

  get configFile(): string {
    return this.path('config.json');
  }

  exists(): boolean {
    return existsSync(this.configFile);
  }

  config(): HomeConfig {
    if (!this.exists()) throw new UsageError(`${this.directory} is not initialised; run: missionweave init --dir ${this.directory}`);
    return JSON.parse(readFileSync(this.configFile, 'utf8')) as HomeConfig;
  }

  writeJson(relative: string, value: unknown, mode = 0o644): void {
    const file = this.path(relative);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode });
  }

  readJson<T>(relative: string): T {
    return JSON.parse(readFileSync(this.path(relative), 'utf8')) as T;
  }

  privateKey(file: string): KeyObject {
    return createPrivateKey(readFileSync(this.path(file), 'utf8'));
  }

  writePrivateKey(file: string, key: KeyObject): void {
    const path = this.path(file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, key.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  }

  principalFile(handle: string): string {
    return join('principals', `${handle}.json`);
  }

  principal(handle: string): PrincipalRecord {
    const file = this.principalFile(handle);
    if (!existsSync(this.path(file))) throw new UsageError(`no Principal ${handle} in ${this.directory}`);
    return this.readJson<PrincipalRecord>(file);
  }

  principals(): PrincipalRecord[] {
    const directory = this.path('principals');
    if (!existsSync(directory)) return [];
    return readdirSync(directory)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => this.readJson<PrincipalRecord>(join('principals', f)));
  }

  /** The database URL: DATABASE_URL, then the configured one; undefined means embedded. */
  databaseUrl(): string | undefined {
    const fromEnvironment = process.env['DATABASE_URL'];
    if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
    return this.config().databaseUrl;
  }

  settings(overrides: Partial<AuthoritySettings> = {}): AuthoritySettings {
    const config = this.config();
    return {
      services: {
        organizationId: config.organizationId,
        registry: { type: 'service', id: config.services.registry.id },
        authority: { type: 'service', id: config.services.authority.id },
      },
      authorityKey: { keyId: config.services.authority.keyId, privateKey: this.privateKey(config.services.authority.privateKeyFile) },
      freshness: config.freshness,
      maxBatch: DEFAULT_MAX_BATCH,
      writerConcurrency: DEFAULT_WRITER_CONCURRENCY,
      ...overrides,
    };
  }
}

/** Handles become URI path segments: keep them to a safe, readable alphabet. */
export function checkHandle(handle: string | undefined): string {
  if (handle === undefined || !/^[a-z0-9][a-z0-9._-]{0,62}$/.test(handle)) {
    throw new UsageError('a handle is 1–63 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit');
  }
  return handle;
}
