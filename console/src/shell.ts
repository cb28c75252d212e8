/**
 * The shell's state: the key in this browser, the session client made from it, and the one
 * refusal box every screen and Panel reports to (the error code, the Authority's message, what to do),
 * and the Agent directory that names Agents.
 */

import { ConsoleApi } from './api.js';
import { el, replace } from './dom.js';
import { loadKey, type StoredKey } from './keyStore.js';
import { DIRECTORY_FRESH_MS } from './limits.js';
import { Names, shortName, type DirectoryAgent } from './names.js';
import type { Refusal } from './panel.js';
import { whatToDo } from './refusals.js';

let key: StoredKey | undefined;
let api: ConsoleApi | undefined;
let directory: { names: Promise<Names>; at: number } | undefined;

/**
 * Loads the key kept in this browser and signs in with it. The identity line says "Signed in"
 * only once the Authority accepted the signature; a refused sign-in answers with the refusal
 * and leaves the console signed out (the key stays, so the Key screen can try again).
 */
export async function restoreKey(): Promise<Refusal | undefined> {
  key = await loadKey();
  if (key === undefined || key.humanId === '') {
    showIdentity('No key');
    return undefined;
  }
  try {
    await signInWith(key);
    return undefined;
  } catch (error) {
    return asRefusal(error);
  }
}

export function currentKey(): StoredKey | undefined {
  return key;
}

/** The signed-in session client; undefined until a sign-in succeeded. */
export function currentApi(): ConsoleApi | undefined {
  return api;
}

/** Signs in with `next`; on success it becomes the console's key and session, else this rejects with the refusal. */
export async function signInWith(next: StoredKey): Promise<ConsoleApi> {
  showIdentity('Signing in…');
  const candidate = new ConsoleApi(next);
  try {
    await candidate.signIn();
  } catch (error) {
    showIdentity(api === undefined ? 'Not signed in' : signedIn(api));
    throw error;
  }
  if (api !== undefined && api !== candidate) void api.signOut();
  key = next;
  api = candidate;
  directory = undefined;
  showIdentity(signedIn(candidate));
  return candidate;
}

/** Forgets the session (the key screen's "Forget this key"). */
export function signOut(): void {
  void api?.signOut();
  api = undefined;
  key = undefined;
  directory = undefined;
  showIdentity('No key');
}

/** The Agent directory as names, read at most every `DIRECTORY_FRESH_MS` (or now, with `fresh`). */
export function currentNames(fresh = false): Promise<Names> {
  const session = api;
  if (session === undefined) return Promise.resolve(new Names());
  if (fresh || directory === undefined || Date.now() - directory.at > DIRECTORY_FRESH_MS) {
    const names = session.get('/v1/agents').then((answer) => new Names((answer['agents'] ?? []) as unknown as DirectoryAgent[]));
    directory = { names, at: Date.now() };
    // A failed read is not kept: the next caller asks again.
    names.catch(() => {
      if (directory?.names === names) directory = undefined;
    });
  }
  return directory.names;
}

function signedIn(session: ConsoleApi): string {
  return `Signed in as ${shortName(session.identity.humanId)}`;
}

function showIdentity(line: string): void {
  const slot = document.getElementById('identity');
  if (slot !== null) slot.textContent = line;
}

/** Any thrown value as a refusal document. */
export function asRefusal(error: unknown): Refusal {
  const refusal = error as Refusal;
  return typeof refusal?.code === 'string' ? refusal : { code: 'CONSOLE_ERROR', message: String((error as Error)?.message ?? error) };
}

export function clearRefusal(): void {
  const box = document.getElementById('refusal');
  if (box !== null) box.hidden = true;
}

/** Shows a refusal: the error code first (what an operator searches for), then what to do. */
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
    showRefusal(asRefusal(error));
  }
}
