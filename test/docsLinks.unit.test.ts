/**
 * Every relative link in the README, BENCHMARKS.md and docs/ leads somewhere: to a file or
 * folder of the repository and, for a Markdown file with `#anchor`, to one of its headings (as
 * GitHub names them). Links that leave the repository (the specification checked out beside
 * it, `../shared/…`) and web addresses are not followed.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = ['README.md', 'BENCHMARKS.md', ...markdownUnder('docs')];

function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside code fences and code spans, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf((match[1] as string).replace(/[*_`]/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const match of prose(readFileSync(join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^([a-z]+:|#|\/)/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = resolve(ROOT, dirname(page), decodeURIComponent(path));
    if (relative(ROOT, file).startsWith('..')) continue;
    if (!existsSync(file)) broken.push(`${target} (no such file)`);
    else if (anchor !== undefined && anchor !== '' && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${target} (no such heading)`);
  }
  return broken;
}

describe('relative links in the documentation', () => {
  it('names headings as GitHub does', () => {
    expect(anchorOf('Operations: the embedded PostgreSQL')).toBe('operations-the-embedded-postgresql');
    expect(anchorOf('Authorization Service and capability tokens (§12)')).toBe('authorization-service-and-capability-tokens-12');
  });

  for (const page of PAGES) {
    it(`lead somewhere from ${page}`, () => {
      expect(brokenLinks(page)).toEqual([]);
    });
  }
});

describe('the front pages stay short (issue 30)', () => {
  it('keeps the README a front door of at most 250 lines and BENCHMARKS.md at most 300', () => {
    const lines = (page: string) => readFileSync(join(ROOT, page), 'utf8').split('\n').length - 1;
    expect(lines('README.md')).toBeLessThanOrEqual(250);
    expect(lines('BENCHMARKS.md')).toBeLessThanOrEqual(300);
  });
});
