/**
 * A preview of an Artifact the Approval Panel downloaded and hash-checked, by its declared media
 * type: text as text, Markdown as a small safe subset (markdown.ts), JSON pretty-printed, images
 * (SVG included) as an `<img>` of a blob URL of that type. An Agent wrote these bytes, so nothing
 * here parses them as HTML: text goes in through text nodes only, and an SVG is never inlined as
 * live markup — in an `<img>` a browser runs no script and loads nothing else. Any other type gets
 * no preview, only the download.
 */

import { el } from '../dom.js';
import { PREVIEW_MAX_CHARS } from '../limits.js';
import { renderMarkdown } from './markdown.js';

export type PreviewKind = 'text' | 'markdown' | 'json' | 'image' | 'none';

/** Raster and vector image types a browser decodes in `<img>`; anything else is not shown. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/svg+xml']);
/** Text types shown as text; text/html is not among them (a download, never a page). */
const TEXT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/csv', 'text/tab-separated-values', 'text/x-log', 'text/xml', 'application/xml', 'application/yaml', 'text/yaml']);

/** The bare type: lower case, parameters (`; charset=…`) dropped. */
export function essence(mediaType: string | null | undefined): string {
  return (mediaType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function previewKind(mediaType: string | null | undefined): PreviewKind {
  const type = essence(mediaType);
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return 'json';
  if (IMAGE_TYPES.has(type)) return 'image';
  if (TEXT_TYPES.has(type)) return 'text';
  return 'none';
}

/** Object URLs made for previews, revoked together when the Panel is rebuilt or left. */
export class BlobUrls {
  private readonly urls: string[] = [];

  make(bytes: ArrayBuffer, type: string): string {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    this.urls.push(url);
    return url;
  }

  revokeAll(): void {
    for (const url of this.urls.splice(0)) URL.revokeObjectURL(url);
  }
}

/**
 * The verified bytes as a file to save. Typed application/octet-stream whatever the Artifact
 * declares, so that opening the link can only save it, never render it as a page of this origin.
 */
export function downloadLink(bytes: ArrayBuffer, contentHash: string, urls: BlobUrls): HTMLAnchorElement {
  return el('a', { href: urls.make(bytes, 'application/octet-stream'), download: contentHash.replace(':', '-') }, 'Download');
}

/** UTF-8 text, cut at the preview bound with a note saying so. */
function decoded(bytes: ArrayBuffer): { text: string; cut: boolean } {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return text.length > PREVIEW_MAX_CHARS ? { text: text.slice(0, PREVIEW_MAX_CHARS), cut: true } : { text, cut: false };
}

function cutNote(cut: boolean): HTMLElement | null {
  return cut ? el('p', { class: 'muted' }, `Preview cut after ${PREVIEW_MAX_CHARS.toLocaleString()} characters: download the Artifact for the rest.`) : null;
}

function jsonPreview(text: string, cut: boolean): HTMLElement[] {
  if (!cut) {
    try {
      return [el('pre', { class: 'preview-json' }, JSON.stringify(JSON.parse(text) as unknown, null, 2))];
    } catch {
      return [el('p', { class: 'warning' }, 'Declared as JSON, but it does not parse; shown as text:'), el('pre', { class: 'preview-text' }, text)];
    }
  }
  return [el('pre', { class: 'preview-text' }, text)];
}

/** The preview of verified `bytes` of `mediaType`; `label` names the Artifact for the image's text alternative. */
export function renderPreview(bytes: ArrayBuffer, mediaType: string | null | undefined, label: string, urls: BlobUrls): HTMLElement {
  const kind = previewKind(mediaType);
  const box = el('div', { class: `preview preview-${kind}`, 'data-preview': kind });
  if (kind === 'image') {
    const image = el('img', { src: urls.make(bytes, essence(mediaType)), alt: `Preview of ${label}` });
    image.addEventListener('error', () => image.replaceWith(el('p', { class: 'warning' }, 'This image could not be shown; download it to open it.')));
    box.append(image);
    return box;
  }
  if (kind === 'none') {
    box.append(el('p', { class: 'muted' }, `No preview for ${essence(mediaType) || 'an Artifact without a media type'}: download it to open it.`));
    return box;
  }
  const { text, cut } = decoded(bytes);
  if (kind === 'markdown') box.append(renderMarkdown(text));
  else if (kind === 'json') box.append(...jsonPreview(text, cut));
  else box.append(el('pre', { class: 'preview-text' }, text));
  const note = cutNote(cut);
  if (note !== null) box.append(note);
  return box;
}
