/**
 * The Organization's context generator Agent in an operator folder (src/app/context/
 * contextGenerator.ts, src/home/home.ts, src/server.ts): a folder made before the generator existed
 * gains its key and registered Agent Card once, when nodes start serving on it (several at once
 * keep one key and one card); `init` on such a folder does the same; a folder whose key was
 * replaced registers the next card version. Real PostgreSQL, the folder pointed at it.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTEXT_GENERATION_CAPABILITY, CONTEXT_GENERATOR_AGENT_ID, contextGeneratorOf, registerContextGenerator } from '../src/app/context/contextGenerator.js';
import { listProfiles } from '../src/app/extensionProfiles.js';
import { DEFAULT_FRESHNESS } from '../src/app/limits.js';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';
import { CONTEXT_GENERATOR_KEY_FILE, Home, type HomeConfig } from '../src/home/home.js';
import { ensureHome } from '../src/cli/initCommand.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';
import { openAuthority } from '../src/server.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-generator-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder as `init` made it before the context generator existed: services bound, no generator. */
async function folderWithoutGenerator(db: TestDatabase): Promise<Home> {
  const home = new Home(join(scratch, randomUUID()));
  const service = (name: string, id: string) => {
    home.writePrivateKey(`keys/${name}.pem`, generatePrivateKey());
    return { id, keyId: `urn:uuid:${randomUUID()}`, privateKeyFile: `keys/${name}.pem` };
  };
  const config: HomeConfig = {
    organizationId: `urn:missionweave:organization:${randomUUID()}`,
    services: { registry: service('registry', 'urn:missionweave:service:registry'), authority: service('authority', 'urn:missionweave:service:group-authority') },
    tls: { certFile: 'tls/cert.pem', keyFile: 'tls/key.pem' },
    server: { host: '127.0.0.1', port: 8443 },
    databaseUrl: db.url,
    freshness: DEFAULT_FRESHNESS,
  };
  home.writeJson('config.json', config);
  const running = await openAuthority(home);
  try {
    for (const s of [config.services.registry, config.services.authority]) {
      await running.authority.enrolKey({ keyId: s.keyId, principal: { type: 'service', id: s.id }, algorithm: 'Ed25519', publicKey: publicKeyBase64url(home.privateKey(s.privateKeyFile)), validFrom: '2026-01-01T00:00:00Z', validityHistory: [] });
    }
  } finally {
    await running.close();
  }
  return home;
}

async function generatorCards(db: TestDatabase): Promise<{ cardVersion: number; document: string }[]> {
  const result = await db.pool.query<{ cardVersion: number; document: string }>('select card_version as "cardVersion", document from agent_cards where agent_id = $1 order by card_version', [CONTEXT_GENERATOR_AGENT_ID]);
  return result.rows;
}

describe('serving on a folder without a context generator', () => {
  it('two nodes starting at once create one key and register one card; a restart changes nothing', async () => {
    const db = await createTestDatabase();
    const home = await folderWithoutGenerator(db);
    expect(home.contextGenerator()).toBeUndefined();
    const nodes = await Promise.all([1, 2].map(() => openAuthority(home, { reactor: true })));
    try {
      const generator = home.contextGenerator();
      expect(generator?.principal).toEqual({ type: 'agent', id: CONTEXT_GENERATOR_AGENT_ID });
      expect(readdirSync(home.path('keys')).sort()).toEqual(['authority.pem', 'context-generator.pem', 'registry.pem']);
      for (const node of nodes) {
        expect(node.authority.settings.contextGenerator?.key.keyId).toBe(generator?.key.keyId);
        const exported = await node.authority.registryExport();
        expect(exported.document.snapshot.contextGenerator).toEqual(generator?.principal);
        expect(exported.document.registry.bindings.find((b) => b.keyId === generator?.key.keyId)?.principal).toEqual(generator?.principal);
      }
      const cards = await generatorCards(db);
      expect(cards.map((c) => c.cardVersion)).toEqual([1]);
      const card = JSON.parse(cards[0]!.document) as { owner: unknown; capabilities: { id: string; version: string }[] };
      expect(card.owner).toEqual({ type: 'service', id: 'urn:missionweave:service:registry' });
      expect(card.capabilities.map((c) => `${c.id}@${c.version}`)).toEqual([CONTEXT_GENERATION_CAPABILITY]);
      // The node's code profiles (disput v0, Parley v1) are registered once too, approved by the Registry service.
      const profiles = await listProfiles(db.pool);
      expect(profiles.map((p) => [p.profileUri, p.version])).toEqual([[DISPUT_URI, '0.1.0'], [PARLEY_URI, '1.0.0']]);
      for (const profile of profiles) expect(JSON.parse(profile.document).approvedBy).toEqual({ type: 'service', id: 'urn:missionweave:service:registry' });
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
    const again = await openAuthority(home, { reactor: true });
    await again.close();
    expect((await generatorCards(db)).map((c) => c.cardVersion)).toEqual([1]);
  });

  it('a one-shot command (no reactor) neither creates nor registers the generator', async () => {
    const db = await createTestDatabase();
    const home = await folderWithoutGenerator(db);
    const running = await openAuthority(home);
    await running.close();
    expect(existsSync(home.path(CONTEXT_GENERATOR_KEY_FILE))).toBe(false);
    expect(await generatorCards(db)).toEqual([]);
    expect(await listProfiles(db.pool)).toEqual([]);
  });
});

describe('two nodes registering the generator', () => {
  it('a node that read the card version and the Registry around the other node\'s registration registers no second card', async () => {
    const db = await createTestDatabase();
    const home = await folderWithoutGenerator(db);
    // One-shot nodes (no reactor) register nothing themselves.
    const [a, b] = await Promise.all([openAuthority(home), openAuthority(home)]);
    try {
      const { registry } = home.config().services;
      const registration = {
        generator: contextGeneratorOf(generatePrivateKey()),
        registryKey: { keyId: registry.keyId, privateKey: home.privateKey(registry.privateKeyFile) },
        endpoint: 'wss://127.0.0.1:8443',
      };
      // Node a registers the card right after node b's first look at the Registry.
      const refresh = b.authority.refreshRegistry.bind(b.authority);
      let raced = false;
      b.authority.refreshRegistry = async () => {
        const moved = await refresh();
        if (!raced) {
          raced = true;
          expect(await registerContextGenerator(a.authority, a.pool, registration)).toBe('registered');
        }
        return moved;
      };
      expect(await registerContextGenerator(b.authority, b.pool, registration)).toBe('registered');
      expect(raced).toBe(true);
      expect((await generatorCards(db)).map((c) => c.cardVersion)).toEqual([1]);
      expect(await registerContextGenerator(b.authority, b.pool, registration)).toBe('already-registered');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('init', () => {
  it('adds the generator to an older folder, once, and registers the next card for a replaced key', async () => {
    const db = await createTestDatabase();
    const home = await folderWithoutGenerator(db);
    await ensureHome(home);
    const first = home.contextGenerator();
    expect(first).toBeDefined();
    expect((await generatorCards(db)).map((c) => c.cardVersion)).toEqual([1]);
    await ensureHome(home);
    expect((await generatorCards(db)).map((c) => c.cardVersion)).toEqual([1]);
    rmSync(home.path(CONTEXT_GENERATOR_KEY_FILE));
    await ensureHome(home);
    const second = home.contextGenerator();
    expect(second?.key.keyId).not.toBe(first?.key.keyId);
    const cards = await generatorCards(db);
    expect(cards.map((c) => c.cardVersion)).toEqual([1, 2]);
    expect(cards[1]!.document).toContain(second!.key.keyId);
  });
});
