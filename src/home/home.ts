/**
 * The operator's directory, made by `missionweave init`: configuration, the Organization
 * services' keys, the context generator Agent's key, the development TLS certificate, the
 * Principals added since, and the embedded database. Private keys are PKCS#8 PEM files readable
 * by the owner only.
 */

import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contextGeneratorOf } from '../app/context/contextGenerator.js';
import type { AuthoritySettings, ContextGenerator, FreshnessWindow } from '../app/settings.js';
import { generatePrivateKey } from '../protocol/signing/signDocument.js';
import type { PrincipalType } from '../protocol/principal.js';
import { NoInputError, UsageError } from './usageError.js';
import { DEFAULT_MAX_BATCH, DEFAULT_WRITER_CONCURRENCY } from '../app/limits.js';

/**
 * The context generator's key (src/app/context/contextGenerator.ts). Its Agent ID is fixed and its
 * key ID derives from the key, so this one file is the whole of it: a folder made before the
 * generator existed gains it without `config.json` being rewritten under a running node.
 */
export const CONTEXT_GENERATOR_KEY_FILE = 'keys/context-generator.pem';

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
  /** Absent for a human enrolled with `--public-key`: the private key is held elsewhere (a browser). */
  readonly privateKeyFile?: string;
  /** Agents only: their signed Agent Card. */
  readonly cardFile?: string;
}

export class Home {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = resolve(directory);
  }

  /** A path inside the home; a configured absolute path (the operator's certificate, say) stays as it is. */
  path(...parts: string[]): string {
    return resolve(this.directory, ...parts);
  }

  get configFile(): string {
    return this.path('config.json');
  }

  exists(): boolean {
    return existsSync(this.configFile);
  }

  config(): HomeConfig {
    if (!this.exists()) throw new NoInputError(`${this.directory} is not a missionweave home (no config.json); give the right --dir, or make one with: missionweave init --dir ${this.directory}`);
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

  /** The context generator, if this folder has its key. */
  contextGenerator(): ContextGenerator | undefined {
    return existsSync(this.path(CONTEXT_GENERATOR_KEY_FILE)) ? contextGeneratorOf(this.privateKey(CONTEXT_GENERATOR_KEY_FILE)) : undefined;
  }

  /**
   * The context generator, its key created first if the folder lacks one. Several nodes starting
   * on one folder at once keep one key: each writes a whole key file of its own and links it into
   * place, and a link fails where the name exists, so the first wins and the others read its key.
   */
  ensureContextGenerator(): ContextGenerator {
    const target = this.path(CONTEXT_GENERATOR_KEY_FILE);
    if (!existsSync(target)) {
      const draft = `${CONTEXT_GENERATOR_KEY_FILE}.${randomUUID()}.tmp`;
      this.writePrivateKey(draft, generatePrivateKey());
      try {
        linkSync(this.path(draft), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        rmSync(this.path(draft), { force: true });
      }
    }
    return contextGeneratorOf(this.privateKey(CONTEXT_GENERATOR_KEY_FILE));
  }

  principalFile(handle: string): string {
    return join('principals', `${handle}.json`);
  }

  principal(handle: string): PrincipalRecord {
    this.config(); // a folder that is not a home says so, rather than that it lacks the Principal
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
    const contextGenerator = this.contextGenerator();
    return {
      services: {
        organizationId: config.organizationId,
        registry: { type: 'service', id: config.services.registry.id },
        authority: { type: 'service', id: config.services.authority.id },
      },
      authorityKey: { keyId: config.services.authority.keyId, privateKey: this.privateKey(config.services.authority.privateKeyFile) },
      registryKey: { keyId: config.services.registry.keyId, privateKey: this.privateKey(config.services.registry.privateKeyFile) },
      freshness: config.freshness,
      maxBatch: DEFAULT_MAX_BATCH,
      writerConcurrency: DEFAULT_WRITER_CONCURRENCY,
      ...(contextGenerator === undefined ? {} : { contextGenerator }),
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
