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

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { groupView as fixtureView } from './support/consoleFixture.js';
import { agendaSubmitted, CHROMIUM, ConsoleNode, followAsCoordinator, haveBrowser, WAIT } from './support/consoleNode.js';
import { eventsOf } from './support/missions.js';

const TOKEN_LIMIT = 50_000;

let env: ConsoleNode;
let page: Page;
/** Every `/view` body the page received, in order: what the Panels were built from. */
const views: JsonObject[] = [];

const until = <T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> => env.until(check, what);

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

beforeAll(async () => {
  if (!haveBrowser) return;
  env = await ConsoleNode.start('mw-console-ops-');
  page = env.page;
  page.on('response', (response) => {
    if (!/\/v1\/groups\/[^/]+\/view$/.test(new URL(response.url()).pathname) || response.status() !== 200) return;
    response.json().then((body: JsonObject) => void views.push(body), () => undefined);
  });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe.skipIf(!haveBrowser)(`the operation Panels on a real node (skipped when ${CHROMIUM} is absent)`, () => {
  it('shows the real WorkItem, budgets and Memberships, commits a redaction and shows a refused cancellation', { timeout: 240_000 }, async () => {
    const alice = env.add('human', 'alice');
    const planner = env.addAgent('planner');
    const writer = env.addAgent('writer');

    // The human signs in with her PKCS#8 key and creates a Mission with two budget dimensions.
    await page.goto(`${env.node.https}/`);
    await page.waitForURL(/#\/setup$/);
    await page.getByLabel('PKCS#8 key file').setInputFiles(alice.file);
    await page.getByLabel('Line printed by human add').fill(alice.line);
    await page.getByRole('button', { name: 'Import key' }).click();
    await page.waitForURL(/#\/missions$/);
    await page.locator('nav[aria-label="Console"]').getByRole('link', { name: 'New Mission' }).click();
    await page.getByLabel('Title').fill('Plan the offsite');
    await page.getByLabel('Objective').fill('Agree an agenda for the team offsite.');
    await page.getByLabel('Definition of done').fill('An agreed agenda.');
    await page.getByLabel('Coordinator').selectOption({ label: 'planner' });
    await page.getByLabel('Model token limit').fill(String(TOKEN_LIMIT));
    await page.getByRole('button', { name: 'Create Mission' }).click();
    await page.waitForURL(/#\/groups\/[^/]+\/timeline$/, { timeout: WAIT });
    const groupId = decodeURIComponent(/#\/groups\/([^/]+)\//.exec(page.url())?.[1] as string);

    // The SDK Coordinator posts a Message, admits the Worker, which accepts the offer and submits.
    const lead = await followAsCoordinator(env, planner, groupId);
    const leakedId = await lead.post('The staging password is hunter2.');
    const { workItemId, hashes, submitted } = await agendaSubmitted(env, lead, writer, groupId, '# Offsite\n\n09:00 Goals\n');

    // WorkItems: the card sits in the §10.2 "submitted" column with its owner and Ownership Epoch.
    const boardView = await openPanel('WorkItems');
    expectDocumentedShape(boardView);
    const line = at(boardView, 'workItems').find((w) => w['workItemId'] === workItemId) as JsonObject;
    expect(line).toMatchObject({ state: 'submitted', owner: { agentId: writer.id, ownershipEpoch: expect.any(Number) }, ownershipLease: { leaseType: 'ownership', state: 'active' } });
    const fixtureLease = (at(fixtureView(), 'workItems')[0] as JsonObject)['ownershipLease'];
    expect(sortedKeys(line['ownershipLease']).filter((key) => key !== 'startBy')).toEqual(sortedKeys(fixtureLease));
    expect(sortedKeys(line['owner'])).toEqual(sortedKeys((at(fixtureView(), 'workItems')[0] as JsonObject)['owner']));
    const epoch = (line['owner'] as JsonObject)['ownershipEpoch'] as number;
    const card = page.locator('[data-state="submitted"] .mw-card', { hasText: 'Draft the offsite agenda.' });
    await card.waitFor({ timeout: WAIT });
    const cardText = await card.innerText();
    expect(cardText).toMatch(/Owner\s+writer/);
    expect(cardText).not.toContain('urn:');
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
    // Members by name: the handle of a human, the display name of an Agent's card (GET /v1/agents).
    const rowOf = (name: string) => page.locator('tbody tr', { has: page.locator('td:first-child', { hasText: new RegExp(`^${name} \\(`) }) });
    await rowOf('writer').waitFor({ timeout: WAIT });
    for (const [who, name, role, shown] of [[alice.id, 'alice', 'mission_owner', 'MissionOwner'], [planner.id, 'planner', 'coordinator', 'Coordinator'], [writer.id, 'writer', 'worker', 'Worker']] as const) {
      const membership = at(membersView, 'memberships').find((m) => (m['member'] as JsonObject)['id'] === who) as JsonObject;
      expect(membership, who).toMatchObject({ role, state: 'active' });
      const cells = await rowOf(name).locator('td').allInnerTexts();
      expect(cells.slice(1, 4), who).toEqual([shown, 'active', String(membership['membershipEpoch'])]);
    }
    expect(await page.locator('.mw-panel-body').innerText()).not.toMatch(/urn:|§/);
    expect(await rowOf('planner').innerText()).toContain('Fixed');
    expect(await rowOf('writer').getByRole('button', { name: /Change role/ }).count()).toBe(1);
    expect(at(membersView, 'presence').find((p) => p['agentId'] === writer.id)).toMatchObject({ connected: true });
    expect(await rowOf('writer').locator('td').nth(5).innerText()).not.toMatch(/^(—|not connected)$/);

    // Interventions: redact the Coordinator's Message; PostgreSQL keeps the redaction by alice.
    const before = await openPanel('Interventions');
    await page.locator('.mw-chooser[aria-busy="false"]').waitFor({ timeout: WAIT });
    await page.locator('.mw-chooser tbody tr', { hasText: 'hunter2' }).getByRole('radio').check();
    await page.getByLabel('Policy reason for the redaction').fill('A credential in the open');
    await page.getByRole('button', { name: 'Redact Message…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Redact Message' }).click();
    await page.locator('.mw-accepted', { hasText: 'message.redact' }).waitFor({ timeout: WAIT });
    const redacted = (await eventsOf(env.db.pool, groupId)).filter((e) => e['kind'] === 'message.redacted');
    expect(redacted).toHaveLength(1);
    expect(redacted[0]?.['actor']).toEqual({ type: 'human', id: alice.id });
    expect((redacted[0]?.['payload'] as JsonObject)['amendment']).toMatchObject({ targetMessageId: leakedId, kind: 'redaction' });
    expect(JSON.stringify(redacted[0]?.['payload'])).toContain('A credential in the open');
    // The Panel rebuilt from a fresh view and Event page: the redacted Message is no longer offered.
    await page.locator('.mw-chooser', { hasText: 'No unredacted Message' }).waitFor({ timeout: WAIT });
    const revision = (views.at(-1)?.['mission'] as JsonObject)['revision'] as number;
    expect(revision).toBe((before['mission'] as JsonObject)['revision']);

    // The Mission moves on (the Coordinator submits it); a cancellation decided on the revision
    // the page still shows is refused, with its code, and nothing is cancelled.
    const review = await lead.coordinator.evidence(submitted as never, { type: 'reviewer_assessment', criterionIds: ['agenda-complete'], method: 'Read the agenda.', result: 'passed', artifactHashes: hashes });
    await lead.coordinator.acceptResult(groupId, workItemId, [review]);
    const submission = await lead.agent.command('mission.submit_for_approval', { artifactHashes: hashes }, lead.asCoordinator());
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
    expect((await eventsOf(env.db.pool, groupId)).filter((e) => e['kind'] === 'mission.cancelled')).toEqual([]);
    expect(env.pageErrors).toEqual([]);
  });
});
