/**
 * The operator's certificate and key files, served and reloaded without a restart: on SIGHUP
 * (`serve` wires it) and whenever a file in their folders changes. The folders are watched, not
 * the files, so that every way of renewing is seen: a file rewritten in place, a new file renamed
 * over the old one (what ACME clients do), and a Kubernetes secret, whose `..data` symlink is
 * swapped to a new folder while the file names stay. A pair that does not load (a half-written
 * file, a key of another certificate) is refused with a warning and the served one stays, until
 * the next change completes the pair.
 */

import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';

/** Changes settle this long before the files are read, so that a pair written together is read once. */
export const CERTIFICATE_SETTLE_MS = 150;

export interface CertificatePair {
  readonly cert: Buffer;
  readonly key: Buffer;
}

export interface CertificateFiles {
  /** The pair read at start. */
  readonly initial: CertificatePair;
  /** Reads the files again and serves them if they changed: `reloaded`, `unchanged` or `refused`. */
  reload(): Promise<'reloaded' | 'unchanged' | 'refused'>;
  close(): void;
}

async function readPair(certFile: string, keyFile: string): Promise<CertificatePair> {
  const [cert, key] = await Promise.all([readFile(certFile), readFile(keyFile)]);
  return { cert, key };
}

/**
 * Reads `certFile` and `keyFile`, then watches their folders and hands each new pair that loads
 * to `serve` (which throws for a pair that does not).
 */
export async function watchCertificateFiles(certFile: string, keyFile: string, serve: (pair: CertificatePair) => void, logger: Logger): Promise<CertificateFiles> {
  const initial = await readPair(certFile, keyFile);
  let served = initial;
  let reading = Promise.resolve<'reloaded' | 'unchanged' | 'refused'>('unchanged');
  const reloadOnce = async (): Promise<'reloaded' | 'unchanged' | 'refused'> => {
    let pair: CertificatePair;
    try {
      pair = await readPair(certFile, keyFile);
    } catch (error) {
      logger.warn({ certFile, keyFile, reason: (error as Error).message }, 'certificate files unreadable; the served certificate stays');
      return 'refused';
    }
    if (pair.cert.equals(served.cert) && pair.key.equals(served.key)) return 'unchanged';
    try {
      serve(pair);
    } catch (error) {
      logger.warn({ certFile, keyFile, reason: (error as Error).message }, 'certificate refused; the served certificate stays');
      return 'refused';
    }
    served = pair;
    logger.info({ certFile }, 'certificate reloaded');
    return 'reloaded';
  };
  // One read at a time, in order: the last change is always read after it happened.
  const reload = (): Promise<'reloaded' | 'unchanged' | 'refused'> => (reading = reading.then(reloadOnce, reloadOnce));

  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, CERTIFICATE_SETTLE_MS);
  };
  const watchers: FSWatcher[] = [...new Set([dirname(certFile), dirname(keyFile)])].map((folder) => {
    const watcher = watch(folder, { persistent: false }, changed);
    watcher.on('error', (error) => logger.warn({ folder, reason: error.message }, 'certificate folder no longer watched; SIGHUP still reloads'));
    return watcher;
  });
  return {
    initial,
    reload,
    close() {
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
