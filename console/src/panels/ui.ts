/**
 * The DOM helpers the operation Panels share: an element builder, buttons, tables, a
 * confirmation dialog, the refusal box and the one way a Panel submits a Command.
 *
 * Plain DOM and native controls on purpose: a `<button>` is reachable by Tab and pressed by Enter
 * and Space without any code, a `<dialog>` opened with `showModal()` traps focus and closes on
 * Escape, and a `role="alert"` region is read out when a refusal appears. Text goes in through
 * `textContent` only — view content (goals, Message text, reasons) is written by Agents and must
 * never be parsed as HTML.
 */
import type { CommandOptions, ConsoleContext, JsonObject, Refusal } from '../panel.js';
import { whatToDo } from '../refusals.js';

type Child = Node | string | null | undefined | false;

export interface ElementProps {
  readonly className?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

/** `<tag class=… attr=…>children</tag>`; strings become text nodes, falsy children are skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className !== undefined) element.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** A real `<button type="button">`: Tab reaches it, Enter and Space press it. */
export function button(label: string, onPress: () => void, options: { readonly className?: string; readonly disabled?: boolean; readonly describedBy?: string } = {}): HTMLButtonElement {
  const element = h('button', { className: options.className ?? 'mw-button', attrs: { type: 'button' } }, label);
  element.disabled = options.disabled === true;
  if (options.describedBy !== undefined) element.setAttribute('aria-describedby', options.describedBy);
  element.addEventListener('click', onPress);
  return element;
}

let nextId = 0;
/** A document-unique id for label/aria wiring. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** A labelled form control: the `<label for>` makes the label clickable and announced. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): HTMLElement {
  if (control.id === '') control.id = uniqueId('mw-field');
  return h('div', { className: 'mw-field' }, h('label', { attrs: { for: control.id } }, label), control);
}

export function select(options: readonly { readonly value: string; readonly label: string }[], selected?: string): HTMLSelectElement {
  const element = h('select');
  for (const option of options) {
    const item = h('option', { attrs: { value: option.value } }, option.label);
    item.selected = option.value === selected;
    element.append(item);
  }
  return element;
}

/**
 * A table with a caption and column headers. Each cell carries its header as `data-label`, so
 * that at phone width the stylesheet can stack a row into a card without losing which value is
 * which.
 */
export function table(caption: string, headers: readonly string[], rows: readonly (readonly Child[])[]): HTMLTableElement {
  const head = h('thead', {}, h('tr', {}, ...headers.map((header) => h('th', { attrs: { scope: 'col' } }, header))));
  const body = h('tbody');
  for (const row of rows) {
    body.append(h('tr', {}, ...row.map((cell, index) => h('td', { attrs: { 'data-label': headers[index] ?? '' } }, cell))));
  }
  return h('table', { className: 'mw-table' }, h('caption', {}, caption), head, body);
}

/**
 * Asks the human to confirm an action in a modal `<dialog>`. Focus starts on "Go back", the
 * harmless choice (WAI-ARIA alertdialog practice), and returns to what had it before.
 */
export function confirmAction(question: string, details: readonly string[], confirmLabel: string): Promise<boolean> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = uniqueId('mw-confirm-title');
  const dialog = h('dialog', { className: 'mw-dialog', attrs: { 'aria-labelledby': titleId, role: 'alertdialog' } });
  return new Promise<boolean>((resolve) => {
    const close = (answer: boolean): void => {
      dialog.close();
      dialog.remove();
      previous?.focus();
      resolve(answer);
    };
    const back = button('Go back', () => close(false));
    const confirm = button(confirmLabel, () => close(true), { className: 'mw-button mw-danger' });
    dialog.append(
      h('h2', { attrs: { id: titleId } }, question),
      ...details.map((line) => h('p', {}, line)),
      h('div', { className: 'mw-actions' }, back, confirm),
    );
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    back.focus();
  });
}

/** The refusal as the human sees it beside the action: its §19 code, message and what to do. */
export function refusalBox(refusal: Refusal): HTMLElement {
  return h(
    'div',
    { className: 'mw-refusal', attrs: { role: 'alert' } },
    h('p', {}, h('strong', { className: 'mw-code' }, refusal.code), ' ', refusal.message),
    h('p', { className: 'mw-hint' }, whatToDo(refusal)),
  );
}

/**
 * Submits one Command and reports the outcome in `status` (a live region beside the action).
 * A refusal goes to the shell (`showRefusal`) and into `status`. Answers whether it was accepted.
 */
export async function submitCommand(
  context: ConsoleContext,
  status: HTMLElement,
  kind: string,
  payload: JsonObject,
  options?: CommandOptions,
): Promise<boolean> {
  status.replaceChildren(h('p', { className: 'mw-pending' }, `Sending ${kind}…`));
  try {
    const result = await context.submit(kind, payload, options);
    if (result.ok) {
      const note = result.duplicate ? 'already accepted earlier' : `accepted, ${result.events.length} Event(s)`;
      status.replaceChildren(h('p', { className: 'mw-accepted' }, `${kind}: ${note}.`));
      return true;
    }
    context.showRefusal(result.error);
    status.replaceChildren(refusalBox(result.error));
    return false;
  } catch (error) {
    // No answer: the Command may or may not have been accepted; the view will tell.
    const reason = error instanceof Error ? error.message : String(error);
    status.replaceChildren(
      h('div', { className: 'mw-refusal', attrs: { role: 'alert' } }, h('p', {}, `${kind}: no answer from the Authority (${reason}).`), h('p', { className: 'mw-hint' }, 'Reload the panel to see whether it took effect before retrying.')),
    );
    return false;
  }
}

/** The live region each action reports into. */
export function statusRegion(): HTMLElement {
  // tabindex -1: focusable by script (after an action rebuilt the Panel), not a Tab stop.
  return h('div', { className: 'mw-status', attrs: { 'aria-live': 'polite', tabindex: '-1' } });
}

/** A Panel's heading and the line under it. */
export function panelHeader(title: string, subtitle: string): HTMLElement {
  return h('header', { className: 'mw-panel-header' }, h('h2', {}, title), h('p', { className: 'mw-subtitle' }, subtitle));
}
