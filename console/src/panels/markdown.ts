/**
 * A small, safe subset of Markdown for Artifact previews: headings, paragraphs, lists, quotes,
 * rules, fenced code, and inline code, strong, emphasis and http(s) links. Built as DOM nodes
 * from text nodes only — there is no HTML parser anywhere in it — so raw HTML in the source
 * (`<script>`, `<img onerror=…>`) shows as the literal text it is, and a link is made only for an
 * `http:`/`https:` address (never `javascript:`). Each line is read once; the inline pattern has
 * no nested quantifiers, so the time is linear in the (already bounded) text.
 */

import { el } from '../dom.js';

/**
 * `code`, **strong**, *em* or _em_, [text](http…): each alternative bounded to one line. An
 * underscore inside a word (`snake_case_name`) is not emphasis, as in CommonMark.
 */
const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\*([^*\n]+)\*|(?<!\w)_([^_\n]+)_(?!\w)|\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;

function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index;
    if (at > last) nodes.push(document.createTextNode(text.slice(last, at)));
    const [, code, strong, star, underscore, linkText, href] = match;
    if (code !== undefined) nodes.push(el('code', {}, code));
    else if (strong !== undefined) nodes.push(el('strong', {}, strong));
    else if (star !== undefined || underscore !== undefined) nodes.push(el('em', {}, star ?? underscore));
    else if (linkText !== undefined && href !== undefined) nodes.push(el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, linkText));
    last = at + match[0].length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$/;
const FENCE = /^\s*(```|~~~)/;

/** The Markdown `source` as a `<div>` of safe elements. */
export function renderMarkdown(source: string): HTMLElement {
  const root = el('div', { class: 'markdown' });
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: { tag: 'ul' | 'ol'; node: HTMLElement } | undefined;
  let quote: HTMLElement | undefined;
  const flush = (): void => {
    if (paragraph.length > 0) (quote ?? root).append(el('p', {}, ...inline(paragraph.join(' '))));
    paragraph = [];
  };
  const endBlocks = (): void => {
    flush();
    list = undefined;
    quote = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      endBlocks();
      const body: string[] = [];
      for (index++; index < lines.length && !(lines[index] as string).trimStart().startsWith(fence[1] as string); index++) body.push(lines[index] as string);
      root.append(el('pre', {}, el('code', {}, body.join('\n'))));
      continue;
    }
    if (line.trim() === '') {
      endBlocks();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      endBlocks();
      // The page has h1 and h2 already: a preview's headings sit below them.
      const level = Math.min(6, (heading[1] as string).length + 2);
      root.append(el(`h${level}` as 'h3', { class: 'md-heading' }, ...inline(heading[2] as string)));
      continue;
    }
    if (RULE.test(line)) {
      endBlocks();
      root.append(el('hr', {}));
      continue;
    }
    const item = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (item !== null) {
      flush();
      quote = undefined;
      const tag = BULLET.test(line) ? 'ul' : 'ol';
      if (list?.tag !== tag) {
        list = { tag, node: el(tag, {}) };
        root.append(list.node);
      }
      list.node.append(el('li', {}, ...inline(item[1] as string)));
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted !== null) {
      if (quote === undefined) {
        endBlocks();
        quote = el('blockquote', {});
        root.append(quote);
      }
      paragraph.push(quoted[1] as string);
      continue;
    }
    if (list !== undefined) list = undefined;
    paragraph.push(line.trim());
  }
  flush();
  return root;
}
