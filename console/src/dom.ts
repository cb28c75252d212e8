/** A small element builder: the console is plain DOM (README, "The MissionOwner console"). */

export type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

/**
 * `el('button', { type: 'button', onclick: go }, 'Go')`. Attributes starting with `on` are
 * listeners; `true` sets a boolean attribute, `false`/`undefined` leaves it out. Text is always
 * a text node, never parsed as HTML, so Event content cannot inject markup.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A labelled form control: the label names it for screen readers and keyboard users. */
export function field(label: string, control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, hint?: string): HTMLElement {
  control.id ||= `f-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Math.random().toString(36).slice(2, 7)}`;
  return el('div', { class: 'field' }, el('label', { for: control.id }, label), control, hint === undefined ? null : el('small', {}, hint));
}

/** Replaces a node's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}
