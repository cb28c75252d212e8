/**
 * Getting the human's key into this browser, once: import the PKCS#8 file `missionweave human
 * add` wrote, or generate a key here and enrol its public half with `human add --public-key`.
 * Either way the private key is stored non-extractable (keyStore.ts) and never leaves the page.
 */

import { append, el, field, replace } from '../dom.js';
import { ed25519Supported, generateKey, importPkcs8 } from '../keyImport.js';
import { forgetKey, saveKey, type StoredKey } from '../keyStore.js';
import { shortName } from '../names.js';
import { currentApi, currentKey, guarded, signInWith, signOut } from '../shell.js';

/** The identity fields `human add` prints: `{"type","id","keyId","privateKeyFile"}`. */
function identityInputs(): { humanId: HTMLInputElement; keyId: HTMLInputElement; line: HTMLTextAreaElement; fields: HTMLElement } {
  const humanId = el('input', { name: 'humanId', autocomplete: 'off', placeholder: 'filled from the line above', required: true });
  const keyId = el('input', { name: 'keyId', autocomplete: 'off', placeholder: 'filled from the line above', required: true });
  const line = el('textarea', { name: 'line', rows: 2, placeholder: 'paste the line that starts with {"type":"human"' });
  line.addEventListener('input', () => {
    try {
      const printed = JSON.parse(line.value) as { id?: unknown; keyId?: unknown };
      if (typeof printed.id === 'string') humanId.value = printed.id;
      if (typeof printed.keyId === 'string') keyId.value = printed.keyId;
    } catch {
      // Not (yet) a whole JSON line: the fields stay as typed.
    }
  });
  const fields = el('div', {},
    field('Line printed by human add (fills the two fields below)', line),
    field('Human ID', humanId),
    field('Key ID', keyId));
  return { humanId, keyId, line, fields };
}

/**
 * Signs in with the key first and keeps it only if the Authority accepted its signature: a key
 * the Authority refuses (the wrong file for these IDs, a revoked key) is shown as refused, and
 * nobody is "signed in".
 */
async function adopt(key: StoredKey): Promise<void> {
  await signInWith(key);
  await saveKey(key);
  location.hash = '#/missions';
}

function importSection(): HTMLElement {
  const file = el('input', { type: 'file', name: 'keyFile', accept: '.pem,application/x-pem-file,text/plain', required: true });
  const identity = identityInputs();
  const form = el('form', { class: 'card', 'aria-labelledby': 'import-title' },
    el('h2', { id: 'import-title' }, 'Import the key file from human add'),
    el('p', {}, 'The operator ran ', el('code', {}, 'missionweave human add <handle> --dir <dir>'), ': it printed your human ID and key ID and wrote your PKCS#8 key file. Choose that file; it is read here and stored in this browser only, as a key that cannot be exported again.'),
    field('PKCS#8 key file', file),
    identity.fields,
    el('button', { type: 'submit' }, 'Import key'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void guarded(async () => {
      const chosen = file.files?.[0];
      if (chosen === undefined) throw { code: 'CONSOLE_INPUT', message: 'choose the key file first' };
      const { privateKey, publicKey } = await importPkcs8(await chosen.text());
      file.value = '';
      await adopt({ humanId: identity.humanId.value.trim(), keyId: identity.keyId.value.trim(), privateKey, publicKey });
    });
  });
  return form;
}

function generateSection(): HTMLElement {
  const out = el('div', { 'aria-live': 'polite' });
  const section = el('section', { class: 'card', 'aria-labelledby': 'generate-title' },
    el('h2', { id: 'generate-title' }, 'Or generate a key in this browser'),
    el('p', {}, 'The private key is made here and can never be exported; give the operator the command below to enrol its public key.'),
    el('button', { type: 'button', onclick: () => void guarded(async () => showGenerated(out, await generateKey())) }, 'Generate key'),
    out);
  return section;
}

function showGenerated(out: HTMLElement, pair: { privateKey: CryptoKey; publicKey: string }): void {
  const identity = identityInputs();
  const form = el('form', {},
    el('p', {}, 'Public key: ', el('code', { class: 'wrap', 'data-testid': 'public-key' }, pair.publicKey)),
    el('p', {}, 'Enrol it (the operator runs):'),
    el('pre', { class: 'wrap' }, `missionweave human add <handle> --dir <dir> --public-key ${pair.publicKey}`),
    el('p', {}, 'Then enter the human ID and key ID it printed:'),
    identity.fields,
    el('button', { type: 'submit' }, 'Save key'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void guarded(() => adopt({ humanId: identity.humanId.value.trim(), keyId: identity.keyId.value.trim(), ...pair }));
  });
  replace(out, form);
}

function currentSection(key: StoredKey): HTMLElement {
  const signedIn = currentApi()?.identity.humanId === key.humanId;
  return el('section', { class: 'card', 'aria-labelledby': 'current-title' },
    el('h2', { id: 'current-title' }, `The key of ${shortName(key.humanId)} in this browser`),
    el('p', {}, signedIn ? 'Signed in with it.' : 'Not signed in: the Authority has not accepted this key (see the message above), or it could not be reached.'),
    el('p', {}, 'Private key: ', key.privateKey.extractable ? 'extractable' : 'non-extractable, kept in this browser only.'),
    el('details', {},
      el('summary', {}, 'Identifiers (for the operator)'),
      el('dl', {},
        el('dt', {}, 'Human ID'), el('dd', {}, el('code', { class: 'wrap' }, key.humanId)),
        el('dt', {}, 'Key ID'), el('dd', {}, el('code', { class: 'wrap' }, key.keyId)),
        el('dt', {}, 'Public key'), el('dd', {}, el('code', { class: 'wrap' }, key.publicKey)))),
    el('div', { class: 'row' },
      signedIn ? null : el('button', { type: 'button', onclick: () => void guarded(() => adopt(key)) }, 'Sign in with this key'),
      el('button', { type: 'button', class: 'danger', onclick: () => void guarded(async () => {
        await forgetKey();
        signOut();
        location.hash = '#/setup';
        location.reload();
      }) }, 'Forget this key')));
}

export async function renderSetup(root: HTMLElement): Promise<void> {
  const key = currentKey();
  const supported = await ed25519Supported();
  append(root,
    el('h1', {}, 'Your signing key'),
    supported ? null : el('p', { class: 'warning', role: 'alert' }, 'This browser has no WebCrypto Ed25519 (Chromium 137+, Firefox 129+ or Safari 17+ over HTTPS): the console cannot sign here.'),
    key === undefined ? null : currentSection(key),
    importSection(),
    generateSection(),
  );
}
