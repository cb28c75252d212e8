/**
 * The two commands docker-compose.yml runs, run here as real processes on a real PostgreSQL:
 * the init service's `init --dir … --host 0.0.0.0` twice (a second `docker compose up` reruns
 * it: it must succeed again and keep every key), and the image's HEALTHCHECK script against a
 * running node — 0 when /ready answers, 1 when it does not, verifying the node's certificate
 * when given `--ca`.
 */

import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { cli, serve, type ServeProcess } from './support/nodeProcess.js';

const HEALTHCHECK = join(process.cwd(), 'dist', 'cli', 'healthcheck.js');
const scratch = mkdtempSync(join(tmpdir(), 'mw-deploy-'));
const dir = join(scratch, 'deploy');
let node: ServeProcess | undefined;
afterAll(async () => {
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the healthcheck as Docker does (its own process) without blocking the test's event loop. */
function healthcheck(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [HEALTHCHECK, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const keyFiles = (): Record<string, string> => Object.fromEntries(readdirSync(join(dir, 'keys')).map((file) => [file, readFileSync(join(dir, 'keys', file), 'utf8')]));

describe('the compose deployment’s commands', () => {
  let ready = '';
  let cert = '';

  it('init on PostgreSQL, run again as a second `up` does, succeeds with the same summary and the same keys', async () => {
    const db = await createTestDatabase();
    const first = cli(db.url, 'init', '--dir', dir, '--host', '0.0.0.0');
    expect(first.code, first.stderr).toBe(0);
    const keys = keyFiles();
    const config = readFileSync(join(dir, 'config.json'), 'utf8');
    cert = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
    expect(Object.keys(keys).sort()).toEqual(['authority.pem', 'context-generator.pem', 'registry.pem']);
    // ECDSA P-256, not RSA: the server signs once per full TLS handshake (initCommand.ts).
    const x509 = new X509Certificate(cert);
    expect(x509.publicKey.asymmetricKeyType).toBe('ec');
    expect(x509.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    const second = cli(db.url, 'init', '--dir', dir, '--host', '0.0.0.0');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(keyFiles()).toEqual(keys);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(config);
    expect(readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8')).toBe(cert);

    node = await serve(db.url, dir);
    ready = `https://127.0.0.1:${new URL(node.https).port}/ready`;
  }, 120_000);

  it('the HEALTHCHECK script exits 0 while the node is ready: unverified, and verified with the folder’s certificate', async () => {
    expect(await healthcheck(['--url', ready])).toEqual({ code: 0, stderr: '' });
    expect(await healthcheck(['--url', ready, '--ca', join(dir, 'tls', 'cert.pem')])).toEqual({ code: 0, stderr: '' });
    expect(await healthcheck([], { MW_HEALTHCHECK_URL: ready, MW_HEALTHCHECK_CA: join(dir, 'tls', 'cert.pem') })).toEqual({ code: 0, stderr: '' });
  });

  it('exits 1 with its reason for a wrong answer, a certificate it cannot verify, a closed port and a non-https URL', async () => {
    const notFound = await healthcheck(['--url', ready.replace('/ready', '/not-a-route')]);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/answered 404/);

    const other = await selfsigned.generate([{ name: 'commonName', value: 'someone else' }], { keySize: 2048, algorithm: 'sha256' });
    expect(other.cert).not.toBe(cert);
    const otherCa = join(scratch, 'other-ca.pem');
    writeFileSync(otherCa, other.cert);
    const untrusted = await healthcheck(['--url', ready, '--ca', otherCa]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/^unhealthy: .*(self-signed|certificate)/m);

    const port = Number(new URL(ready).port);
    await node?.kill('SIGTERM');
    node = undefined;
    const closed = await healthcheck(['--url', `https://127.0.0.1:${String(port)}/ready`]);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/ECONNREFUSED/);

    const plain = await healthcheck(['--url', 'http://127.0.0.1:8443/ready']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/must be an https URL/);
  }, 60_000);
});
