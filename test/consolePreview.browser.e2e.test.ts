/**
 * The Approval Panel's Artifact previews (console/src/panels/artifactPreview.ts, markdown.ts) in
 * headless Chromium: text, Markdown, JSON and images are shown, and an Agent's bytes never become
 * live markup — HTML in text or Markdown shows as literal text and runs nothing, an SVG is an
 * `<img>` of a blob URL (no `<svg>` in the page, its script never runs), a `javascript:` link is
 * not made; HTML and other types get no preview, only the download.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openPanelsPage, type PanelsPage } from './support/consolePage.js';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const ATTACK = '<b>bold?</b><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

let ui: PanelsPage;

async function preview(bytes: string | Buffer, mediaType: string | null): Promise<void> {
  const base64 = (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('base64');
  await ui.page.evaluate(([b, t]) => (globalThis as unknown as { __mwPreview(b: string, t: string | null): void }).__mwPreview(b as string, t), [base64, mediaType] as const);
}

const count = (selector: string): Promise<number> => ui.page.locator(`#root ${selector}`).count();
const text = (): Promise<string> => ui.page.locator('#root').innerText();
const pwned = (): Promise<unknown> => ui.page.evaluate('window.__pwned');

describe.skipIf(!existsSync(CHROMIUM))('Artifact previews in a browser', () => {
  beforeAll(async () => {
    ui = await openPanelsPage();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('shows text as text: HTML in it is literal and runs nothing', async () => {
    await preview(`Agenda\n${ATTACK}`, 'text/plain; charset=utf-8');
    expect(await ui.page.locator('#root [data-preview]').getAttribute('data-preview')).toBe('text');
    expect(await text()).toContain(ATTACK);
    expect(await count('b')).toBe(0);
    expect(await count('img')).toBe(0);
    expect(await count('script')).toBe(0);
    expect(await pwned()).toBeUndefined();
  });

  it('renders Markdown to a safe subset: headings, lists, emphasis, code, http(s) links; raw HTML stays text', async () => {
    const source = ['# Offsite', '', 'Plan for **one day**, with `code` and *care*; keep snake_case_names.', '', '- 09:00 Goals', '- 13:00 Plans', '', '1. first', '2. second', '', '> quoted', '', '```', '<script>window.__pwned=3</script>', '```', '', ATTACK, '', '[bad](javascript:alert(1)) and [good](https://example.org/a)'].join('\n');
    await preview(source, 'text/markdown');
    expect(await ui.page.locator('#root h3').innerText()).toBe('Offsite');
    expect(await ui.page.locator('#root strong').innerText()).toBe('one day');
    expect(await ui.page.locator('#root em').innerText()).toBe('care');
    expect(await ui.page.locator('#root ul li').allInnerTexts()).toEqual(['09:00 Goals', '13:00 Plans']);
    expect(await ui.page.locator('#root ol li').allInnerTexts()).toEqual(['first', 'second']);
    expect(await ui.page.locator('#root blockquote').innerText()).toBe('quoted');
    expect(await ui.page.locator('#root pre code').innerText()).toBe('<script>window.__pwned=3</script>');
    const shown = await text();
    expect(shown).toContain(ATTACK);
    expect(shown).toContain('keep snake_case_names.');
    expect(shown).toContain('[bad](javascript:alert(1))');
    expect(await count('b')).toBe(0);
    expect(await count('img')).toBe(0);
    expect(await count('script')).toBe(0);
    const links = ui.page.locator('#root .preview a');
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe('https://example.org/a');
    expect(await links.getAttribute('rel')).toContain('noopener');
    expect(await pwned()).toBeUndefined();
  });

  it('pretty-prints JSON, and says so when it does not parse', async () => {
    await preview('{"b":1,"a":[1,2],"html":"<i>x</i>"}', 'application/json');
    expect(await ui.page.locator('#root pre').innerText()).toBe(JSON.stringify({ b: 1, a: [1, 2], html: '<i>x</i>' }, null, 2));
    expect(await count('i')).toBe(0);
    await preview('{"b":', 'application/vnd.example+json');
    expect(await text()).toContain('does not parse');
    expect(await ui.page.locator('#root pre').innerText()).toBe('{"b":');
  });

  it('shows a PNG through a blob URL of its type', async () => {
    await preview(Buffer.from(PNG_1X1, 'base64'), 'image/png');
    const image = ui.page.locator('#root img');
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    expect(await image.getAttribute('alt')).toBe('Preview of the test Artifact');
    await ui.page.waitForFunction('document.querySelector("#root img")?.complete && document.querySelector("#root img").naturalWidth === 1');
    expect(await ui.page.evaluate('fetch(document.querySelector("#root img").src).then((r) => r.blob()).then((b) => b.type)')).toBe('image/png');
  });

  it('shows an SVG only as an image: never inlined, its script never runs', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" onload="window.top.__pwned=4"><script>window.top.__pwned=5</script><rect width="20" height="10" fill="red"/></svg>';
    await preview(svg, 'image/svg+xml');
    await ui.page.waitForFunction('document.querySelector("#root img")?.complete && document.querySelector("#root img").naturalWidth === 20');
    expect(await count('svg')).toBe(0);
    expect(await count('script')).toBe(0);
    expect(await pwned()).toBeUndefined();
  });

  it('offers no preview of HTML or other types, only the download, which can only be saved', async () => {
    for (const type of ['text/html', 'application/pdf', 'application/octet-stream', null]) {
      await preview(ATTACK, type);
      expect(await ui.page.locator('#root .preview').innerText(), String(type)).toMatch(/^No preview for .*: download it to open it\.$/);
      expect(await count('img')).toBe(0);
      // Whatever the declared type, the download is a blob of application/octet-stream: opened, it is saved, never rendered.
      const link = ui.page.locator('#root a[download]');
      expect(await link.getAttribute('download')).toBe('sha256-00');
      expect(await ui.page.evaluate('fetch(document.querySelector("#root a[download]").href).then((r) => r.blob()).then((b) => b.type)')).toBe('application/octet-stream');
    }
    expect(await pwned()).toBeUndefined();
  });

  it('cuts a long text at its bound and says so', async () => {
    await preview('x'.repeat(200_005), 'text/plain');
    expect((await ui.page.locator('#root pre').innerText()).length).toBe(200_000);
    expect(await text()).toContain('Preview cut after 200,000 characters');
    expect(ui.errors).toEqual([]);
  });
});
