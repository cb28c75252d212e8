/**
 * The console's operation Panels, its timeline, its Approval Panel (without an API: nothing is
 * downloaded or signed) and its Artifact previews in a real browser:
 * bundles them with Vite's `build` API into a temporary folder with a test page whose
 * ConsoleContext serves a fixture view and Agent directory and records the Commands submitted
 * (and which renders a preview of given bytes), serves that folder over HTTP on port 0, and opens
 * it in headless Chromium through playwright-core.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

export const CHROMIUM = '/usr/bin/chromium';

/** The page's ConsoleContext: each `show` renders one Panel over what the test hands it. */
const PAGE_SCRIPT = (operations: string, timeline: string, approval: string, names: string, preview: string): string => `
import { operationPanels } from ${JSON.stringify(operations)};
import { timelinePanel } from ${JSON.stringify(timeline)};
import { approvalPanel } from ${JSON.stringify(approval)};
import { Names } from ${JSON.stringify(names)};
import { BlobUrls, downloadLink, renderPreview } from ${JSON.stringify(preview)};
const allPanels = [...operationPanels, timelinePanel, approvalPanel];
const state = { submitted: [], refusals: [], gets: [], views: 0, listeners: new Set(), nextRefusal: null, view: null, viewRefusal: null, events: null, agents: [] };
const blobs = new BlobUrls();
window.__mwPreview = (base64, mediaType) => {
  blobs.revokeAll();
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const root = document.getElementById('root');
  root.replaceChildren(renderPreview(bytes.buffer, mediaType, 'the test Artifact', blobs), downloadLink(bytes.buffer, 'sha256:00', blobs));
};
window.__mw = state;
let current;
window.__mwShow = async (id, setup) => {
  Object.assign(state, { submitted: [], refusals: [], gets: [], views: 0, nextRefusal: null, viewRefusal: null }, setup);
  const panel = allPanels.find((p) => p.id === id);
  if (!panel) throw new Error('no panel ' + id);
  current?.dispose?.();
  const root = document.getElementById('root');
  root.replaceChildren();
  const context = {
    me: { type: 'human', id: 'urn:missionweave:human:alice', keyId: 'urn:uuid:key-1' },
    groupId: state.view?.groupId ?? 'urn:uuid:none',
    view: async () => { state.views += 1; if (state.viewRefusal) throw state.viewRefusal; return structuredClone(state.view); },
    get: async (path) => { state.gets.push(path); if (!state.events) throw { code: 'GROUP_NOT_FOUND', message: 'no events' }; return structuredClone(state.events); },
    submit: async (kind, payload, options) => {
      state.submitted.push({ kind, payload, options: options ?? {} });
      const refusal = state.nextRefusal;
      state.nextRefusal = null;
      return refusal ? { ok: false, error: refusal } : { ok: true, duplicate: false, events: [{ kind }] };
    },
    showRefusal: (error) => state.refusals.push(error),
    names: async () => new Names(state.agents),
    onEvent: (listener) => { state.listeners.add(listener); return () => state.listeners.delete(listener); },
  };
  await panel.render(root, context);
  current = panel;
};
window.__mwEmit = (event) => { for (const listener of state.listeners) listener(event); };
`;

const PAGE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Panels</title><style>body { margin: 0; padding: 12px; }</style></head>
<body><main id="root"></main><script type="module" src="./page.js"></script></body></html>`;

const TYPES: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export interface PanelsPage {
  readonly browser: Browser;
  readonly page: Page;
  /** Page errors (uncaught exceptions) seen so far. */
  readonly errors: string[];
  close(): Promise<void>;
}

function serve(folder: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(join(folder, new URL(request.url ?? '/', 'http://x').pathname));
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    if (!file.startsWith(folder)) return void response.writeHead(403).end();
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** Bundles the Panels, serves them and opens the page. */
export async function openPanelsPage(): Promise<PanelsPage> {
  const source = mkdtempSync(join(tmpdir(), 'mw-panels-'));
  const out = join(source, 'dist');
  writeFileSync(join(source, 'index.html'), PAGE_HTML);
  writeFileSync(join(source, 'page.js'), PAGE_SCRIPT(resolve('console/src/panels/operations.ts'), resolve('console/src/panels/timeline.ts'), resolve('console/src/panels/approval.ts'), resolve('console/src/names.ts'), resolve('console/src/panels/artifactPreview.ts')));
  await build({ root: source, configFile: false, logLevel: 'silent', build: { outDir: out, emptyOutDir: true, minify: false } });
  const server = await serve(out);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction('typeof window.__mwShow === "function"');
  return {
    browser,
    page,
    errors,
    async close() {
      await browser.close();
      await new Promise((done) => server.close(done));
      rmSync(source, { recursive: true, force: true });
    },
  };
}

/** Renders Panel `id` over `setup` (view, events) and waits for it. */
export async function showPanel(page: Page, id: string, setup: Record<string, unknown>): Promise<void> {
  await page.evaluate(([panel, given]) => (globalThis as unknown as { __mwShow(p: string, s: unknown): Promise<void> }).__mwShow(panel, given), [id, setup] as const);
}

/** A value of the page's recording state, e.g. `submitted`. */
export async function recorded<T>(page: Page, member: string): Promise<T> {
  return (await page.evaluate(`structuredClone(window.__mw[${JSON.stringify(member)}])`)) as T;
}

/** Whether anything is wider than the viewport (a horizontal scrollbar). */
export async function overflows(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth')) as boolean;
}
