/**
 * The console's operation Panels against the real node, through the real shell (issue 13): the
 * WorkItems board, the budget bars and the Members table read the `/v1/groups/{g}/view` that
 * `missionweave serve` really answers (captured from the page's own network traffic and checked
 * against the shape docs/human-api.md documents and the fixture of consolePanels mirrors), and
 * two interventions are signed in the page — a redaction the Authority commits, checked in
 * PostgreSQL, and a cancellation decided on a stale Mission revision, refused with its §19 code.
 *
 * One node, one browser; the SDK Coordinator and Worker of consoleScenario.ts do the work.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/agent.js';
import { MissionWeaveCoordinator } from '../src/client/coordinator.js';
import { MissionWeaveWorker } from '../src/client/worker.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { groupView as fixtureView } from './support/consoleFixture.js';
import { CAPABILITY, agendaContract, selectionBasis } from './support/consoleScenario.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { eventsOf } from './support/missions.js';
import { cli, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';

const CHROMIUM = process.env['MW_CHROMIUM'] ?? '/usr/bin/chromium';
const WAIT = 30_000;
const TOKEN_LIMIT = 50_000;

interface Principal {
  readonly id: string;
  readonly keyId: string;
  readonly file: string;
  readonly line: string;
}

const scratch = mkdtempSync(join(tmpdir(), 'mw-console-ops-'));
const dir = join(scratch, 'org');
let db: TestDatabase;
let node: ServeProcess | undefined;
let browser: Browser | undefined;
let page: Page;
const agents: MissionWeaveAgent[] = [];
const pageErrors: string[] = [];
/** Every `/view` body the page received, in order: what the Panels were built from. */
const views: JsonObject[] = [];

function add(kind: 'human' | 'agent', handle: string, ...extra: string[]): Principal {
  const result = cli(db.url, kind, 'add', handle, '--dir', dir, ...extra);
  expect(result.code, result.stderr).toBe(0);
  const printed = lastJson(result.stdout) as { id: string; keyId: string; privateKeyFile: string };
  const file = isAbsolute(printed.privateKeyFile) ? printed.privateKeyFile : join(dir, printed.privateKeyFile);
  return { id: printed.id, keyId: printed.keyId, file, line: result.stdout.trim().split('\n').at(-1) as string };
}

async function connect(who: Principal, ca: string): Promise<MissionWeaveAgent> {
  const agent = new MissionWeaveAgent({ url: node?.url as string, ca, agentId: who.id, keyId: who.keyId, privateKey: readFileSync(who.file, 'utf8') });
  agents.push(agent);
  await agent.connect();
  return agent;
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; page errors: ${pageErrors.join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens one of the Group's Panels from the shell's tab list and waits for it to be built. */
async function openPanel(name: string): Promise<JsonObject> {
  const before = views.length;
  await page.locator('nav[aria-label="Mission Panels"]').getByRole('link', { name, exact: true }).click();
  await page.locator(`section.mw-panel[aria-label="${name}"] .mw-panel-body[aria-busy="false"]`).waitFor({ timeout: WAIT });
  return until(() => views.length > before && views.at(-1), `the view read by ${name}`);
}

const sortedKeys = (value: unknown): string[] => Object.keys(value as object).sort();
const at = (value: unknown, key: string): JsonObject[] => (value as Record<string, JsonObject[]>)[key] as JsonObject[];

/** The members viewData.ts reads, with their documented types (docs/human-api.md, "View shape"). */
function expectDocumentedShape(view: JsonObject): void {
  const fixture = fixtureView();
  expect(sortedKeys(view)).toEqual(sortedKeys(fixture));
  for (const key of ['viewer', 'group', 'mission', 'missionNotes', 'coordinatorLease']) expect(sortedKeys(view[key]), key).toEqual(sortedKeys(fixture[key]));
  expect(sortedKeys(at(view, 'conversations')[0]), 'the main Conversation').toEqual(sortedKeys(at(fixture, 'conversations')[0]));
  expect(sortedKeys(at(view, 'conversations')[1]), 'a WorkItem Conversation').toEqual(sortedKeys(at(fixture, 'conversations')[1]));
  const activeMembership = at(fixture, 'memberships')[0];
  for (const membership of at(view, 'memberships')) expect(sortedKeys(membership), 'an active Membership').toEqual(sortedKeys(activeMembership));
  expect(view['mission']).toMatchObject({ revision: expect.any(Number), state: expect.any(String), missionOwner: { type: 'human', id: expect.any(String) }, coordinator: { agentId: expect.any(String), coordinatorEpoch: expect.any(Number) } });
  for (const item of at(view, 'workItems')) {
    expect(sortedKeys(item)).toEqual(sortedKeys(at(fixture, 'workItems')[0]));
    expect(item).toMatchObject({ workItemId: expect.any(String), state: expect.any(String), goal: expect.any(String), deadline: expect.any(String), urgency: expect.any(String) });
  }
  for (const line of at(view, 'budgets')) {
    expect(sortedKeys(line)).toEqual(sortedKeys(at(fixture, 'budgets')[0]));
    expect(line).toMatchObject({ dimension: expect.any(String), limit: expect.any(Number), used: expect.any(Number), remaining: expect.any(Number) });
  }
  for (const membership of at(view, 'memberships')) {
    expect(membership).toMatchObject({ member: { type: expect.any(String), id: expect.any(String) }, role: expect.any(String), state: expect.any(String), membershipEpoch: expect.any(Number), grantedAt: expect.any(String) });
  }
  for (const line of at(view, 'presence')) {
    expect(sortedKeys(line)).toEqual(['agentId', 'connected', 'record']);
    expect(typeof line['connected']).toBe('boolean');
  }
}

const haveBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (!haveBrowser) return;
  db = await createTestDatabase();
  expect(cli(db.url, 'init', '--dir', dir).code).toBe(0);
  node = await serve(db.url, dir);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (!/\/v1\/groups\/[^/]+\/view$/.test(new URL(response.url()).pathname) || response.status() !== 200) return;
    response.json().then((body: JsonObject) => void views.push(body), () => undefined);
  });
}, 120_000);

afterAll(async () => {
  for (const agent of agents) await agent.close().catch(() => undefined);
  await browser?.close();
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!haveBrowser)(`the operation Panels on a real node (skipped when ${CHROMIUM} is absent)`, () => {
  it('shows the real WorkItem, budgets and Memberships, commits a redaction and shows a refused cancellation', { timeout: 240_000 }, async () => {
    const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
    const alice = add('human', 'alice');
    const planner = add('agent', 'planner', '--capability', `${CAPABILITY.id}@${CAPABILITY.version}`);
    const writer = add('agent', 'writer', '--capability', `${CAPABILITY.id}@${CAPABILITY.version}`);

    // The human signs in with her PKCS#8 key and creates a Mission with two budget dimensions.
    await page.goto(`${node?.https}/`);
    await page.waitForURL(/#\/setup$/);
    await page.getByLabel('PKCS#8 key file').setInputFiles(alice.file);
    await page.getByLabel('Line printed by human add').fill(alice.line);
    await page.getByRole('button', { name: 'Import key' }).click();
    await page.waitForURL(/#\/missions$/);
    await page.locator('nav[aria-label="Console"]').getByRole('link', { name: 'New Mission' }).click();
    await page.getByLabel('Title').fill('Plan the offsite');
    await page.getByLabel('Objective').fill('Agree an agenda for the team offsite.');
    await page.getByLabel('Definition of done').fill('An agreed agenda.');
    await page.getByLabel('Coordinator Agent ID').fill(planner.id);
    await page.getByLabel('Model token limit').fill(String(TOKEN_LIMIT));
    await page.getByRole('button', { name: 'Create Mission' }).click();
    await page.waitForURL(/#\/groups\/[^/]+\/timeline$/, { timeout: WAIT });
    const groupId = decodeURIComponent(/#\/groups\/([^/]+)\//.exec(page.url())?.[1] as string);

    // The SDK Coordinator posts a Message, admits the Worker, which accepts the offer and submits.
    const coordinatorAgent = await connect(planner, ca);
    const coordinator = new MissionWeaveCoordinator(coordinatorAgent);
    const seen: JsonObject[] = [];
    coordinatorAgent.onEvent((event) => void seen.push(event as unknown as JsonObject));
    await coordinatorAgent.subscribe(groupId);
    const epochs = await until(() => coordinator.epochs.facts(groupId)?.coordinatorEpoch !== undefined && coordinator.epochs.facts(groupId), 'the Coordinator Epoch');
    const asCoordinator = () => ({ groupId, membershipEpoch: epochs.membershipEpoch as number, coordinatorEpoch: epochs.coordinatorEpoch as number });
    const mainConversationId = String(((seen.find((e) => e['kind'] === 'mission.created')?.['payload'] as JsonObject)['group'] as JsonObject)['mainConversationId']);
    const leakedId = `urn:uuid:${randomUUID()}`;
    await coordinatorAgent.command('message.post', { messageId: leakedId, conversationId: mainConversationId, content: 'The staging password is hunter2.' }, asCoordinator());
    await coordinator.admit(groupId, writer.id);
    const workerAgent = await connect(writer, ca);
    const worker = new MissionWeaveWorker(workerAgent);
    const done = new Promise<string[]>((resolve, reject) => {
      worker.onOffer(async (offer) => {
        const owned = await worker.accept(offer);
        await worker.run(owned, async (execution) => {
          const published = await execution.publishArtifact({ bytes: Buffer.from('# Offsite\n\n09:00 Goals\n') }, { mediaType: 'text/markdown', schemaUri: 'urn:missionweave:schema:agenda' });
          const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: ['agenda-complete'], method: 'Counted the slots.', result: 'passed', artifactHashes: [published.contentHash] });
          await execution.submit({ artifactHashes: [published.contentHash], evidence: [evidence] });
          resolve([published.contentHash]);
        });
      });
      worker.onError((error) => reject(error));
    });
    await workerAgent.subscribe(groupId);
    const { workItem } = await coordinator.authorize(groupId, { contract: agendaContract() as never });
    await coordinator.offer(groupId, { workItemId: workItem.workItemId, candidateAgentIds: [writer.id], selectionBasis: selectionBasis() as never, offerExpiresInSeconds: 60 });
    const hashes = await done;
    const submitted = await until(() => seen.map((e) => (e['payload'] as JsonObject | undefined)?.['workItem'] as JsonObject | undefined).find((w) => w?.['workItemId'] === workItem.workItemId && w['state'] === 'submitted'), 'the submitted WorkItem');

    // WorkItems: the card sits in the §10.2 "submitted" column with its owner and Ownership Epoch.
    const boardView = await openPanel('WorkItems');
    expectDocumentedShape(boardView);
    const line = at(boardView, 'workItems').find((w) => w['workItemId'] === workItem.workItemId) as JsonObject;
    expect(line).toMatchObject({ state: 'submitted', owner: { agentId: writer.id, ownershipEpoch: expect.any(Number) }, ownershipLease: { leaseType: 'ownership', state: 'active' } });
    const fixtureLease = (at(fixtureView(), 'workItems')[0] as JsonObject)['ownershipLease'];
    expect(sortedKeys(line['ownershipLease']).filter((key) => key !== 'startBy')).toEqual(sortedKeys(fixtureLease));
    expect(sortedKeys(line['owner'])).toEqual(sortedKeys((at(fixtureView(), 'workItems')[0] as JsonObject)['owner']));
    const epoch = (line['owner'] as JsonObject)['ownershipEpoch'] as number;
    const card = page.locator('[data-state="submitted"] .mw-card', { hasText: 'Draft the offsite agenda.' });
    await card.waitFor({ timeout: WAIT });
    const cardText = await card.innerText();
    expect(cardText).toContain(writer.id);
    expect(cardText).toMatch(new RegExp(`Ownership epoch\\s+${epoch}`));
    expect(cardText).not.toMatch(/Deadline\s+—/);
    expect(await page.locator('[data-state="active"] .mw-empty').innerText()).toBe('None');

    // Budgets: one bar per dimension the Mission grants, limits as the view gives them.
    const budgetView = await openPanel('Budgets');
    expect(at(budgetView, 'budgets').map((b) => [b['dimension'], b['limit'], b['currency']])).toEqual([
      ['financialMicrounits', 100_000_000, 'EUR'],
      ['modelTokens', TOKEN_LIMIT, null],
    ]);
    await expect(page.getByRole('meter').count()).resolves.toBe(2);
    expect(await page.getByRole('meter', { name: 'Model tokens' }).getAttribute('aria-valuemax')).toBe(String(TOKEN_LIMIT));
    expect(await page.getByRole('meter', { name: 'Spend' }).getAttribute('aria-valuemax')).toBe('100000000');
    expect(await page.locator('[data-dimension="financialMicrounits"]').innerText()).toMatch(/100\.00/);

    // Members: the MissionOwner, the Coordinator (fixed) and the Worker, with role, state and epoch.
    const membersView = await openPanel('Members');
    const rowOf = (id: string) => page.locator('tbody tr', { hasText: id });
    await rowOf(writer.id).waitFor({ timeout: WAIT });
    for (const [who, role] of [[alice.id, 'mission_owner'], [planner.id, 'coordinator'], [writer.id, 'worker']] as const) {
      const membership = at(membersView, 'memberships').find((m) => (m['member'] as JsonObject)['id'] === who) as JsonObject;
      expect(membership, who).toMatchObject({ role, state: 'active' });
      const cells = await rowOf(who).locator('td').allInnerTexts();
      expect(cells.slice(1, 4), who).toEqual([role, 'active', String(membership['membershipEpoch'])]);
    }
    expect(await rowOf(planner.id).innerText()).toContain('Fixed');
    expect(await rowOf(writer.id).getByRole('button', { name: /Change role/ }).count()).toBe(1);
    expect(at(membersView, 'presence').find((p) => p['agentId'] === writer.id)).toMatchObject({ connected: true });
    expect(await rowOf(writer.id).locator('td').nth(5).innerText()).not.toMatch(/^(—|not connected)$/);

    // Interventions: redact the Coordinator's Message; PostgreSQL keeps the redaction by alice.
    const before = await openPanel('Interventions');
    await page.locator('.mw-chooser[aria-busy="false"]').waitFor({ timeout: WAIT });
    await page.locator('.mw-chooser tbody tr', { hasText: 'hunter2' }).getByRole('radio').check();
    await page.getByLabel('Policy reason for the redaction').fill('A credential in the open');
    await page.getByRole('button', { name: 'Redact Message…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Redact Message' }).click();
    await page.locator('.mw-accepted', { hasText: 'message.redact' }).waitFor({ timeout: WAIT });
    const redacted = (await eventsOf(db.pool, groupId)).filter((e) => e['kind'] === 'message.redacted');
    expect(redacted).toHaveLength(1);
    expect(redacted[0]?.['actor']).toEqual({ type: 'human', id: alice.id });
    expect((redacted[0]?.['payload'] as JsonObject)['amendment']).toMatchObject({ targetMessageId: leakedId, kind: 'redaction' });
    expect(JSON.stringify(redacted[0]?.['payload'])).toContain('A credential in the open');
    // The Panel rebuilt from a fresh view and Event page: the redacted Message is no longer offered.
    await page.locator('.mw-chooser', { hasText: 'No unredacted Message' }).waitFor({ timeout: WAIT });
    const revision = (views.at(-1)?.['mission'] as JsonObject)['revision'] as number;
    expect(revision).toBe((before['mission'] as JsonObject)['revision']);

    // The Mission moves on (the Coordinator submits it); a cancellation decided on the revision
    // the page still shows is refused, with its §19 code, and nothing is cancelled.
    const review = await coordinator.evidence(submitted as never, { type: 'reviewer_assessment', criterionIds: ['agenda-complete'], method: 'Read the agenda.', result: 'passed', artifactHashes: hashes });
    await coordinator.acceptResult(groupId, workItem.workItemId, [review]);
    const submission = await coordinatorAgent.command('mission.submit_for_approval', { artifactHashes: hashes }, asCoordinator());
    expect((submission.payload as { missionRevision: number }).missionRevision).toBeGreaterThan(revision);
    await page.locator('.mw-notice', { hasText: 'The Group changed' }).waitFor({ timeout: WAIT });
    await page.getByLabel('Reason for cancelling').fill('Superseded');
    await page.getByRole('button', { name: 'Cancel Mission…' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.innerText()).toContain(`revision ${revision}`);
    await dialog.getByRole('button', { name: 'Cancel Mission' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'REVISION_CONFLICT' });
    await refusal.first().waitFor({ timeout: WAIT });
    expect(await page.locator('#refusal .code').textContent()).toBe('REVISION_CONFLICT');
    expect((await eventsOf(db.pool, groupId)).filter((e) => e['kind'] === 'mission.cancelled')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
