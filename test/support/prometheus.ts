/**
 * Reading a node's `GET /metrics` as Prometheus would: one GET over HTTPS, the text exposition
 * parsed into samples (`name{labels} value`), and lookups by name and labels.
 */

import { request } from 'node:https';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Scrape {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly samples: readonly Sample[];
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1] as string, m[2] as string]));
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** One scrape on a connection of its own: a kept-alive one may have been closed by the node's idle timeout. */
export function scrape(httpsUrl: string, ca: string): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/metrics', httpsUrl), { ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolve({ status, contentType: String(res.headers['content-type']), text, samples: status === 200 ? parseExposition(text) : [] });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The samples of a name whose labels include `labels`. */
export function samplesOf(result: Scrape, name: string, labels: Record<string, string> = {}): Sample[] {
  return result.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample of a name and labels; throws when there is none or several. */
export function valueOf(result: Scrape, name: string, labels: Record<string, string> = {}): number {
  const found = samplesOf(result, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return (found[0] as Sample).value;
}
