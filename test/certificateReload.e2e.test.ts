/**
 * The operator's certificate, reloaded without a restart (src/transport/certificateFiles.ts): a
 * renewed pair written over the files, renamed into place, or swapped in as a Kubernetes secret
 * does (`..data` symlink) is served to new handshakes, while a session opened before keeps
 * working on its connection; a pair that does not load is refused and the served one stays.
 */

import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import pino from 'pino';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchCertificateFiles, type CertificateFiles } from '../src/transport/certificateFiles.js';
import type { Actor } from './support/harness.js';
import { RawClient } from './support/rawClient.js';
import { testCertificate, type TestServer } from './support/server.js';
import { until } from './support/until.js';
import { serverWorld } from './support/world.js';

interface Pem {
  readonly cert: string;
  readonly key: string;
}

async function newCertificate(): Promise<Pem> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

const fingerprintOf = (pem: string): string => new X509Certificate(pem).fingerprint256;

/** The fingerprint of the certificate a new handshake is served now. */
function servedFingerprint(httpsUrl: string): Promise<string> {
  const url = new URL(httpsUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
      socket.end();
    });
    socket.once('error', reject);
  });
}

async function served(httpsUrl: string, pem: Pem): Promise<void> {
  let seen = '';
  const expected = fingerprintOf(pem.cert);
  const start = Date.now();
  while (seen !== expected) {
    if (Date.now() - start > 10_000) throw new Error(`still served ${seen}, expected ${expected}`);
    seen = await servedFingerprint(httpsUrl);
    if (seen !== expected) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pingAnswered(client: RawClient, nonce: string): Promise<void> {
  client.send({ frameType: 'PING', nonce, sentAt: new Date().toISOString() });
  expect(await client.next((f) => f.frameType === 'PING' || f.frameType === 'ERROR')).toMatchObject({ frameType: 'PING', replyToNonce: nonce });
}

let server: TestServer;
let agent: Actor;
let folder: string;
let files: CertificateFiles;
const warnings: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void (JSON.parse(line).level === 40 && warnings.push(line)) });

beforeAll(async () => {
  ({ server, agent } = await serverWorld({ agents: { agent: {} } }));
  folder = mkdtempSync(join(tmpdir(), 'mw-certificate-'));
  const first = await testCertificate();
  writeFileSync(join(folder, 'cert.pem'), first.cert);
  writeFileSync(join(folder, 'key.pem'), first.key);
  files = await watchCertificateFiles(join(folder, 'cert.pem'), join(folder, 'key.pem'), (pair) => server.listener.useCertificate(pair), logger);
});

afterAll(() => {
  files.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the operator certificate', () => {
  it('is served to new handshakes once its files change, while an open session keeps working', async () => {
    const old = await RawClient.open(server.url, server.ca);
    expect(await old.hello(agent)).toBeGreaterThan(0);
    expect(await servedFingerprint(server.httpsUrl)).toBe(fingerprintOf(server.ca));

    const renewed = await newCertificate();
    // An ACME client's way: new files renamed over the old ones.
    writeFileSync(join(folder, 'key.pem.new'), renewed.key);
    writeFileSync(join(folder, 'cert.pem.new'), renewed.cert);
    renameSync(join(folder, 'key.pem.new'), join(folder, 'key.pem'));
    renameSync(join(folder, 'cert.pem.new'), join(folder, 'cert.pem'));
    await served(server.httpsUrl, renewed);

    await pingAnswered(old, 'b2xkLXNlc3Npb24');
    // A new client that trusts only the renewed certificate gets a session; one pinned to the old cannot connect.
    const fresh = await RawClient.open(server.url, renewed.cert);
    expect(await fresh.hello(agent)).toBeGreaterThan(0);
    await expect(RawClient.open(server.url, server.ca)).rejects.toThrow();
    old.close();
    fresh.close();
  });

  it('refuses a key of another certificate and keeps serving the one it has', async () => {
    const current = await servedFingerprint(server.httpsUrl);
    const other = await newCertificate();
    const mismatched = await newCertificate();
    warnings.length = 0;
    writeFileSync(join(folder, 'cert.pem'), other.cert);
    writeFileSync(join(folder, 'key.pem'), mismatched.key);
    expect(await files.reload()).toBe('refused');
    await until(() => warnings.some((line) => line.includes('certificate refused')));
    expect(await servedFingerprint(server.httpsUrl)).toBe(current);
    // The pair completed later is served: the next change (or SIGHUP) reads it.
    writeFileSync(join(folder, 'key.pem'), other.key);
    await served(server.httpsUrl, other);
    expect(await files.reload()).toBe('unchanged');
  });

  it('follows a Kubernetes secret whose ..data symlink is swapped to a new folder', async () => {
    const secret = mkdtempSync(join(tmpdir(), 'mw-secret-'));
    const write = (version: string, pem: Pem): void => {
      mkdirSync(join(secret, version));
      writeFileSync(join(secret, version, 'tls.crt'), pem.cert);
      writeFileSync(join(secret, version, 'tls.key'), pem.key);
    };
    const first = await newCertificate();
    write('..v1', first);
    symlinkSync('..v1', join(secret, '..data'));
    symlinkSync(join('..data', 'tls.crt'), join(secret, 'tls.crt'));
    symlinkSync(join('..data', 'tls.key'), join(secret, 'tls.key'));
    const secretFiles = await watchCertificateFiles(join(secret, 'tls.crt'), join(secret, 'tls.key'), (pair) => server.listener.useCertificate(pair), logger);
    try {
      expect(await secretFiles.reload()).toBe('unchanged');
      server.listener.useCertificate(secretFiles.initial);
      await served(server.httpsUrl, first);
      const second = await newCertificate();
      write('..v2', second);
      symlinkSync('..v2', join(secret, '..data_tmp'));
      renameSync(join(secret, '..data_tmp'), join(secret, '..data'));
      await served(server.httpsUrl, second);
    } finally {
      secretFiles.close();
      rmSync(secret, { recursive: true, force: true });
    }
  });
});
