/**
 * The MissionOwner console: hash routes, so that the server serves one static page and every
 * screen has a link a keyboard can follow —
 * `#/setup` (the key), `#/missions` (list and trees), `#/missions/new`, `#/groups/{g}/{panel}`.
 */

import './console.css';
import { renderGroup, leaveGroup } from './screens/group.js';
import { renderCreateMission } from './screens/createMission.js';
import { renderMissions } from './screens/missions.js';
import { renderSetup } from './screens/setup.js';
import { clearRefusal, currentApi, restoreKey, showRefusal } from './shell.js';

function main(): HTMLElement {
  return document.getElementById('main') as HTMLElement;
}

async function route(): Promise<void> {
  let path = location.hash.replace(/^#/, '') || '/missions';
  const root = main();
  clearRefusal();
  // Signed out, every route is the Key screen; replaceState keeps this one render (no hashchange).
  if (currentApi() === undefined && path !== '/setup') {
    history.replaceState(null, '', '#/setup');
    path = '/setup';
  }
  const group = /^\/groups\/([^/]+)(?:\/([a-z-]+))?$/.exec(path);
  if (group === null) leaveGroup();
  root.replaceChildren();
  if (path === '/setup') await renderSetup(root);
  else if (path === '/missions/new') await renderCreateMission(root);
  else if (group !== null) await renderGroup(root, decodeURIComponent(group[1] as string), group[2]);
  else await renderMissions(root);
  // Moving focus to the new screen tells keyboard and screen-reader users the page changed.
  root.querySelector<HTMLElement>('h1')?.setAttribute('tabindex', '-1');
  root.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => void route());
// A refused sign-in with the stored key is shown on the Key screen the route falls back to.
void restoreKey().then(async (refused) => {
  await route();
  if (refused !== undefined) showRefusal(refused);
});
