/**
 * The MissionOwner console in a real browser (issues 13 and 33): Debian's Chromium, headless, driven by
 * playwright-core, against a real `missionweave serve` on PostgreSQL. The human's key comes from
 * the PKCS#8 file `human add` wrote, imported through the page's file input; the Mission is
 * created with its Coordinator picked by name, a directive posted, changes requested and the
 * resubmitted revision approved after its Markdown Artifact was previewed, every Command signed
 * in the page; an Artifact altered in transit is caught by the page's hash check. Every screen
 * speaks in names: no identifier (`urn:…`) and no § reference shows. A key the Authority refuses
 * leaves the console signed out.
 * SDK Agents (a Coordinator and a Worker) do the work over wss. At the end PostgreSQL must hold
 * an Approval that verifies under the human's public key and names exactly the resubmitted
 * revision and its Artifacts.
 *
 * With MW_WRITE_SCREENSHOTS=1 it also writes the screenshots of docs/console.md into docs/console/.
 */

import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingBytes } from '../src/client/signer.js';
import { decodeBase64url } from '../src/protocol/base64url.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { eventsOf } from './support/missions.js';
import { agendaSubmitted, CHROMIUM, ConsoleNode, followAsCoordinator, haveBrowser, WAIT } from './support/consoleNode.js';
import { cli } from './support/nodeProcess.js';

const SCREENSHOTS = process.env['MW_WRITE_SCREENSHOTS'] === '1' ? join(process.cwd(), 'docs', 'console') : undefined;

let env: ConsoleNode;
let page: Page;

/** What the page showed, for a failure's message (and a screenshot beside the scratch folder). */
async function pageState(): Promise<string> {
  await page.screenshot({ path: join(tmpdir(), 'mw-console-failure.png') }).catch(() => undefined);
  const text = async (selector: string) => (await page.locator(selector).first().textContent({ timeout: 1000 }).catch(() => ''))?.replace(/\s+/g, ' ').slice(0, 1500);
  return `url ${page.url()}; refusal: ${await text('#refusal')}; live: ${await text('#live-state')}; main: ${await text('#main')}; page errors: ${env.pageErrors.join(' | ')}`;
}

const until = <T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> => env.until(check, what);

/** The page's width at a phone's 390 px: nothing may make it scroll sideways. */
async function phoneWidth(): Promise<number> {
  await page.setViewportSize({ width: 390, height: 844 });
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  await page.setViewportSize({ width: 1280, height: 800 });
  return width;
}

/** What the screen shows as text, checked for names: no identifier, no § reference. */
async function speaksInNames(what: string): Promise<string> {
  const shown = await page.locator('body').innerText();
  expect(shown, what).not.toMatch(/urn:|§/);
  return shown;
}

async function shot(name: string, width = 1280, height = 800, on: Page = page): Promise<void> {
  if (SCREENSHOTS === undefined) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await on.setViewportSize({ width, height });
  await on.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
  await on.setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  if (!haveBrowser) return;
  env = await ConsoleNode.start('mw-console-');
  page = env.page;
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe.skipIf(!haveBrowser)(`the MissionOwner console in Chromium (skipped when ${CHROMIUM} is absent)`, () => {
  it('imports the human key, creates a Mission, follows it live, directs, requests changes and approves exactly the resubmission', { timeout: 240_000 }, async () => {
    try {
      await scenario();
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await pageState()}`, { cause: error });
    }
  });

  it('generates a key in the browser that `human add --public-key` enrols, and signs in with it', { timeout: 120_000 }, async () => {
    const context = await env.newContext(390, 844);
    const fresh = await context.newPage();
    try {
      await fresh.goto(`${env.node.https}/#/setup`);
      // By keyboard alone: Tab reaches the button, Enter presses it.
      let tabs = 0;
      while ((await fresh.evaluate('document.activeElement && document.activeElement.textContent')) !== 'Generate key') {
        expect(++tabs, 'Tab presses to reach "Generate key"').toBeLessThan(40);
        await fresh.keyboard.press('Tab');
      }
      await fresh.keyboard.press('Enter');
      const publicKey = (await fresh.getByTestId('public-key').textContent()) as string;
      expect(publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await fresh.locator('pre', { hasText: '--public-key' }).textContent()).toContain(publicKey);
      const result = cli(env.db.url, 'human', 'add', 'bob', '--dir', env.dir, '--public-key', publicKey);
      expect(result.code, result.stderr).toBe(0);
      const line = result.stdout.trim().split('\n').at(-1) as string;
      expect(line).not.toContain('PRIVATE');
      await fresh.locator('#generate-title ~ div').getByLabel('Line printed by human add').fill(line);
      await fresh.getByRole('button', { name: 'Save key' }).click();
      await fresh.waitForURL(/#\/missions$/);
      await until(async () => (await fresh.locator('#identity').textContent()) === 'Signed in as bob', 'the signed-in identity');
      await fresh.locator('.missions', { hasText: 'No Missions yet' }).waitFor({ timeout: WAIT });
      // Nothing on the page can read the private key back out of WebCrypto.
      expect(await fresh.evaluate('indexedDB.databases().then((d) => d.map((x) => x.name))')).toEqual(['missionweave-console']);
    } finally {
      await context.close();
    }
  });

  it('is served under the development certificate, which a browser refuses until trusted (docs/console.md)', { timeout: 60_000 }, async () => {
    const context = await env.newContext(1280, 800, false);
    try {
      const strict = await context.newPage();
      await expect(strict.goto(`${env.node.https}/`)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);
    } finally {
      await context.close();
    }
  });

  it('does not sign in with a key the Authority refuses: the refusal, never "Signed in as", nothing kept', { timeout: 120_000 }, async () => {
    const carol = env.add('human', 'carol');
    const dave = env.add('human', 'dave');
    const context = await env.newContext(1280, 800);
    const fresh = await context.newPage();
    try {
      await fresh.goto(`${env.node.https}/#/setup`);
      // Carol's key file with Dave's IDs: the Authority refuses the signature.
      await fresh.getByLabel('PKCS#8 key file').setInputFiles(carol.file);
      await fresh.getByLabel('Line printed by human add').fill(dave.line);
      await fresh.getByRole('button', { name: 'Import key' }).click();
      const refusal = fresh.locator('#refusal');
      await refusal.waitFor({ state: 'visible', timeout: WAIT });
      expect(await refusal.locator('.code').textContent()).toMatch(/^AUTH_[A-Z_]+$/);
      const identity = fresh.locator('#identity');
      await until(async () => (await identity.textContent()) === 'Not signed in', 'the identity line after the refusal');
      expect(fresh.url()).toMatch(/#\/setup$/);
      await shot('sign-in-refused', 1280, 800, fresh);
      // Nothing was kept: after a reload the console has no key, and never said "Signed in".
      await fresh.reload();
      await until(async () => (await identity.textContent()) === 'No key', 'no key after a reload');
      expect(await fresh.locator('body').innerText()).not.toContain('Signed in as');
    } finally {
      await context.close();
    }
  });
});

async function scenario(): Promise<void> {
  {
    const alice = env.add('human', 'alice');
    const planner = env.addAgent('planner');
    const writer = env.addAgent('writer');

    // 1. The key: the PKCS#8 file through the file input, the printed line for the IDs.
    await page.goto(`${env.node.https}/`);
    await page.waitForURL(/#\/setup$/);
    await page.getByRole('heading', { name: 'Your signing key' }).waitFor();
    await speaksInNames('the Key screen');
    // The tab's icon is served, as an SVG of this origin.
    const icon = await page.evaluate('fetch(document.querySelector("link[rel=icon]").href).then((r) => [r.status, r.headers.get("content-type")])');
    expect(icon).toEqual([200, 'image/svg+xml']);
    await shot('setup');
    await page.getByLabel('PKCS#8 key file').setInputFiles(alice.file);
    await page.getByLabel('Line printed by human add').fill(alice.line);
    expect(await page.getByLabel('Human ID').inputValue()).toBe(alice.id);
    await page.getByRole('button', { name: 'Import key' }).click();
    await page.waitForURL(/#\/missions$/);
    await until(async () => (await page.locator('#identity').textContent()) === 'Signed in as alice', 'the signed-in identity');
    await page.locator('.missions', { hasText: 'No Missions yet' }).waitFor({ timeout: WAIT });
    await speaksInNames('the empty Missions list');

    // 2. The Coordinator is picked by name — typing its handle picks it, no pattern error — and a
    // refusal (a deadline in the past) shows its code and what to do; then the Mission is created.
    await page.locator('nav[aria-label="Console"]').getByRole('link', { name: 'New Mission' }).click();
    await page.getByLabel('Title').fill('Plan the offsite');
    await page.getByLabel('Objective').fill('Agree an agenda for the team offsite.');
    await page.getByLabel('Definition of done').fill('An agreed agenda.');
    const coordinator = page.getByLabel('Coordinator');
    expect(await coordinator.locator('option').allTextContents()).toEqual(['Choose an Agent', 'planner', 'writer']);
    await coordinator.focus();
    await page.keyboard.type('planner');
    expect(await coordinator.inputValue()).toBe(planner.id);
    const deadline = await page.getByLabel('Deadline (UTC)').inputValue();
    await page.getByLabel('Deadline (UTC)').fill('2020-01-01T09:00');
    await page.getByRole('button', { name: 'Create Mission' }).click();
    const refusal = page.locator('#refusal');
    await refusal.waitFor({ state: 'visible', timeout: WAIT });
    expect(await refusal.locator('.code').textContent()).toBe('INVALID_COMMAND');
    expect(await refusal.textContent()).toContain('What to do:');
    expect(await refusal.textContent()).not.toMatch(/pattern|urn:|§/);
    await shot('refusal');
    await page.getByLabel('Deadline (UTC)').fill(deadline);
    await speaksInNames('the New Mission form');
    await shot('create-mission');
    await page.getByRole('button', { name: 'Create Mission' }).click();
    await page.waitForURL(/#\/groups\/[^/]+\/timeline$/, { timeout: WAIT });
    const groupId = decodeURIComponent(/#\/groups\/([^/]+)\//.exec(page.url())?.[1] as string);
    expect(((await eventsOf(env.db.pool, groupId))[0]?.['payload'] as JsonObject)['mission']).toMatchObject({ coordinator: { agentId: planner.id } });

    // 3. The Coordinator (an SDK Agent) joins; its Message appears in the page live, under its name.
    const lead = await followAsCoordinator(env, planner, groupId);
    const { seen, asCoordinator } = lead;
    await lead.post('Planner here: drafting the agenda now.');
    const line = page.locator('.timeline li', { hasText: 'Planner here: drafting the agenda now.' });
    await line.waitFor({ timeout: WAIT });
    expect(await line.locator('.actor').textContent()).toBe('planner');

    // 4. A directive from the page reaches the Agent.
    await page.getByLabel('Directive to the Mission').fill('Keep the agenda to one day, please.');
    await page.getByRole('button', { name: 'Post directive' }).click();
    const directive = await until(() => seen.find((e) => e['kind'] === 'message.posted' && JSON.stringify(((e['payload'] as JsonObject)['message'] as JsonObject)['content']).includes('Keep the agenda to one day, please.')), 'the directive at the Agent');
    expect(directive['actor']).toEqual({ type: 'human', id: alice.id });
    await page.locator('.timeline li', { hasText: 'Keep the agenda to one day' }).waitFor({ timeout: WAIT });

    // 5. The Worker (an SDK Agent) does the work; the Coordinator accepts it and submits.
    const { workItemId, hashes, submitted: submittedWork } = await agendaSubmitted(env, lead, writer, groupId, '# Offsite\n\n09:00 Goals\n13:00 Plans\n');
    const review = await lead.coordinator.evidence(submittedWork as never, { type: 'reviewer_assessment', criterionIds: ['agenda-complete'], method: 'Read the agenda.', result: 'passed', artifactHashes: hashes });
    await lead.coordinator.acceptResult(groupId, workItemId, [review]);
    const first = await lead.agent.command('mission.submit_for_approval', { artifactHashes: hashes }, asCoordinator());
    const firstRevision = (first.payload as { missionRevision: number }).missionRevision;

    // 6. The Approval Panel shows the exact revision and Artifacts and checks their hashes: content
    // altered on the way (here by the test, between page and node) is shown as such and cannot be
    // approved. The human requests changes.
    const TAMPERED = '# Offsite\n\n09:00 Goals\n13:00 Karaoke\n';
    await page.route('**/v1/artifacts/**', (route) => route.fulfill({ status: 200, contentType: 'text/markdown', body: TAMPERED }));
    await page.locator('nav[aria-label="Mission Panels"]').getByRole('link', { name: 'Approval' }).click();
    await page.getByText(`Revision ${firstRevision} was submitted`).waitFor({ timeout: WAIT });
    await page.locator('.artifacts', { hasText: hashes[0] as string }).waitFor();
    await page.getByText(`✗ content hashes to sha256:${createHash('sha256').update(TAMPERED).digest('hex')}`).waitFor({ timeout: WAIT });
    expect(await page.getByRole('button', { name: 'Sign and approve' }).isDisabled()).toBe(true);
    expect(await page.getByText('✓ hash verified').count()).toBe(0);
    // Content that does not match its hash is never previewed.
    expect(await page.locator('.artifact-preview').innerText()).not.toContain('Karaoke');
    await page.unroute('**/v1/artifacts/**');
    await page.getByLabel('What must change').fill('Add a lunch break.');
    await page.getByRole('button', { name: 'Request changes' }).click();
    const changes = await until(() => seen.find((e) => e['kind'] === 'mission.changes_requested'), 'changes requested at the Agent');
    expect(changes['payload']).toMatchObject({ missionRevision: firstRevision, feedback: 'Add a lunch break.' });
    expect(changes['actor']).toEqual({ type: 'human', id: alice.id });

    // 7. The Coordinator resubmits; the page shows the new revision and the human signs the Approval.
    const second = await lead.agent.command('mission.submit_for_approval', { artifactHashes: hashes }, asCoordinator());
    const secondRevision = (second.payload as { missionRevision: number }).missionRevision;
    expect(secondRevision).toBeGreaterThan(firstRevision);
    await page.getByText(`Revision ${secondRevision} was submitted`).waitFor({ timeout: WAIT });
    // Downloaded again, untouched this time: the real content matches its hash, and its Markdown
    // is previewed, named by the WorkItem it came from, and offered as a download.
    await page.getByText('✓ hash verified').waitFor({ timeout: WAIT });
    const preview = page.getByRole('region', { name: /^Preview of Artifact 1 \(from “Draft the offsite agenda\.”\)$/ });
    expect(await preview.locator('h3').textContent()).toBe('Offsite');
    expect(await preview.innerText()).toContain('09:00 Goals');
    expect(await page.locator('.artifacts a[download]').getAttribute('href')).toMatch(/^blob:/);
    expect(await page.locator('.sign-summary').textContent()).toBe(`You approve revision ${secondRevision} of “Plan the offsite” and exactly the 1 Artifact(s) above, as alice, under acceptance policy 1.0.0.`);
    await speaksInNames('the Approval screen');
    await page.getByLabel('Comments').fill('Looks right. Ship it.');
    const approve = page.getByRole('button', { name: 'Sign and approve' });
    await until(async () => await approve.isEnabled(), 'the Approve button after the hash checks');
    expect(await page.getByLabel('The Approval you sign').textContent()).toContain(`"missionRevision": ${secondRevision}`);
    await shot('approval');
    await shot('approval-phone', 390, 844);
    expect(await phoneWidth()).toBeLessThanOrEqual(390);
    await approve.click();
    await page.getByText(`Approved revision ${secondRevision} by alice`).waitFor({ timeout: WAIT });

    // 8. PostgreSQL keeps an Approval that verifies under the human's key and names exactly the resubmission.
    const events = await eventsOf(env.db.pool, groupId);
    const approved = events.filter((e) => e['kind'] === 'mission.approved');
    expect(approved).toHaveLength(1);
    const stored = (approved[0]?.['payload'] as { approval: JsonObject & { signature: { keyId: string; value: string } } }).approval;
    expect(stored).toMatchObject({ kind: 'mission_final', decision: 'approved', groupId, missionRevision: secondRevision, approver: { type: 'human', id: alice.id }, comments: 'Looks right. Ship it.' });
    expect(stored['artifactHashes']).toEqual(hashes);
    const lastSubmission = events.filter((e) => e['kind'] === 'mission.submitted_for_approval').at(-1)?.['payload'] as JsonObject;
    expect(lastSubmission).toMatchObject({ missionRevision: secondRevision, artifactHashes: hashes });
    expect(stored.signature.keyId).toBe(alice.keyId);
    const alicePublic = createPublicKey(readFileSync(alice.file, 'utf8'));
    const signature = decodeBase64url(stored.signature.value) as Buffer;
    expect(verify(null, signingBytes(stored as unknown as Record<string, unknown>), alicePublic, signature)).toBe(true);
    expect(verify(null, signingBytes({ ...stored, missionRevision: firstRevision } as unknown as Record<string, unknown>), alicePublic, signature)).toBe(false);
    // Every Command of the human's was signed in the page with the same key.
    const human = events.filter((e) => (e['actor'] as JsonObject)['id'] === alice.id).map((e) => e['kind']);
    expect(human).toEqual(expect.arrayContaining(['mission.created', 'message.posted', 'mission.changes_requested', 'mission.approved']));

    // 9. The other screens, for the README: the timeline (and at phone width) and the Missions list with its tree.
    await page.locator('nav[aria-label="Mission Panels"]').getByRole('link', { name: 'Timeline' }).click();
    await page.locator('.timeline li', { hasText: 'Approved revision' }).waitFor({ timeout: WAIT });
    const timeline = await speaksInNames('the timeline');
    expect(timeline).toContain('alice');
    expect(timeline).toContain('writer');
    await page.getByLabel('Kind').selectOption('message.posted');
    expect(await page.locator('.timeline li').count()).toBe(2);
    await shot('timeline');
    await page.getByLabel('Kind').selectOption('');
    await shot('timeline-phone', 390, 844);
    expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(1280);
    expect(await phoneWidth()).toBeLessThanOrEqual(390);
    await page.locator('nav[aria-label="Console"]').getByRole('link', { name: 'Missions' }).click();
    await page.getByRole('button', { name: 'Mission tree' }).click();
    await page.locator('.tree li', { hasText: 'Plan the offsite' }).waitFor({ timeout: WAIT });
    expect(await speaksInNames('the Missions list')).toContain('MissionOwner');
    await shot('missions');
    await page.locator('nav[aria-label="Console"]').getByRole('link', { name: 'Key' }).click();
    await page.getByRole('heading', { name: 'The key of alice in this browser' }).waitFor({ timeout: WAIT });
    await speaksInNames('the Key screen');
    expect(env.pageErrors).toEqual([]);
  }
}
