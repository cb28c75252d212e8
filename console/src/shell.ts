/**
 * The shell's state: the key in this browser, the session client made from it, and the one
 * refusal box every screen and Panel reports to (§19 code, the Authority's message, what to do).
 */

import { ConsoleApi } from './api.js';
import { el, replace } from './dom.js';
import { loadKey, type StoredKey } from './keyStore.js';
import type { Refusal } from './panel.js';
import { whatToDo } from './refusals.js';

let key: StoredKey | undefined;
let api: ConsoleApi | undefined;

export async function restoreKey(): Promise<StoredKey | undefined> {
  key = await loadKey();
  api = key !== undefined && key.humanId !== '' ? new ConsoleApi(key) : undefined;
  showIdentity();
  return key;
}

export function currentKey(): StoredKey | undefined {
  return key;
}

/** The session client, once a key with its human ID is in this browser. */
export function currentApi(): ConsoleApi | undefined {
  return api;
}

export function useKey(next: StoredKey | undefined): ConsoleApi | undefined {
  void api?.signOut();
  key = next;
  api = next !== undefined && next.humanId !== '' ? new ConsoleApi(next) : undefined;
  showIdentity();
  return api;
}

function showIdentity(): void {
  const slot = document.getElementById('identity');
  if (slot === null) return;
  slot.textContent = api === undefined ? 'No key' : `Signed in as ${api.identity.humanId}`;
}

export function clearRefusal(): void {
  const box = document.getElementById('refusal');
  if (box !== null) box.hidden = true;
}

/** Shows a refusal: the §19 code first (what an operator searches for), then what to do. */
export function showRefusal(error: Refusal): void {
  const box = document.getElementById('refusal');
  if (box === null) return;
  const details = typeof error['reason'] === 'string' ? ` (${error['reason']})` : '';
  replace(
    box,
    el('strong', { class: 'code' }, error.code),
    el('span', {}, ` ${error.message}${details}`),
    el('p', { class: 'todo' }, 'What to do: ', whatToDo(error)),
    el('button', { type: 'button', class: 'link', onclick: clearRefusal }, 'Dismiss'),
  );
  box.hidden = false;
}

/** Runs an action, sending any refusal it rejects with to the refusal box. */
export async function guarded(action: () => Promise<void>): Promise<void> {
  try {
    clearRefusal();
    await action();
  } catch (error) {
    const refusal = error as Refusal;
    showRefusal(typeof refusal?.code === 'string' ? refusal : { code: 'CONSOLE_ERROR', message: String((error as Error)?.message ?? error) });
  }
}
