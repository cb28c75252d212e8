/**
 * The console's operation Panels (console/src/panels) in headless Chromium: the board's columns
 * and cards, the budget bars, the Membership actions, the interventions with their confirmation
 * and expectedRevision, refusals with their §19 code, keyboard operation, and no horizontal
 * overflow at 1280×800 and at a 390 px phone width. MW_WRITE_SCREENSHOTS=1 also writes
 * docs/console/{workitems,budgets,members,interventions}.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { GROUP_ID, MAIN_CONVERSATION, MISSION_REVISION, SCRIBE, SECRET_MESSAGE, WORKER, WORKER_EPOCH, directory, eventsPage, groupView } from './support/consoleFixture.js';
import { CHROMIUM, openPanelsPage, overflows, recorded, showPanel, type PanelsPage } from './support/consolePage.js';

interface Submitted {
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  readonly options: Record<string, unknown>;
}

const PANELS = ['workitems', 'budgets', 'members', 'interventions'] as const;

/** Every Command the page submitted, checked against the server's own payload schema. */
async function submittedValid(page: PanelsPage['page']): Promise<Submitted[]> {
  const submitted = await recorded<Submitted[]>(page, 'submitted');
  for (const { kind, payload } of submitted) expect(schemaRegistry().validatePayload(kind, payload), kind).toEqual({ ok: true });
  return submitted;
}
const setup = (): Record<string, unknown> => ({ view: groupView(), events: eventsPage(), agents: directory() });

/** What a Panel shows as text: no identifier (`urn:…`) and no § reference of the protocol. */
async function visibleText(page: PanelsPage['page']): Promise<string> {
  return page.locator('#root').innerText();
}

describe.skipIf(!existsSync(CHROMIUM))('console operation Panels in a browser', () => {
  let ui: PanelsPage;
  beforeAll(async () => {
    ui = await openPanelsPage();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('registers the four Panels the shell lists', async () => {
    for (const id of PANELS) await showPanel(ui.page, id, setup());
    expect(ui.errors).toEqual([]);
  });

  it('groups WorkItems by state with owner (by name), epoch, lease and deadline', async () => {
    const { page } = ui;
    await showPanel(page, 'workitems', setup());
    const headings = await page.locator('.mw-column h3').allTextContents();
    expect(headings.map((h) => h.replace(/\s*\d+$/, ''))).toEqual(['Open', 'Offered', 'Queued', 'Active', 'Blocked', 'Submitted', 'Verified', 'Failed', 'Cancelled']);
    const active = page.locator('[data-state="active"] .mw-card');
    await expect(active.count()).resolves.toBe(1);
    const card = await active.innerText();
    expect(card).toContain('Draft the summary');
    expect(card).toMatch(/Owner\s+Builder/);
    expect(card).not.toContain('urn:');
    expect(card).toMatch(/Ownership epoch\s+2/);
    expect(card).toMatch(/Execution lease\s+until/);
    const blocked = await page.locator('[data-state="blocked"] .mw-card').innerText();
    expect(blocked).toContain('overdue');
    expect(blocked).toContain('paused on toolCalls');
    // A WorkItem with nothing but its ID and state still gets a card, gaps as "—".
    const bare = await page.locator('[data-state="queued"] .mw-card').innerText();
    expect(bare).toMatch(/Owner\s+—/);
    expect(await page.locator('[data-state="offered"] .mw-empty').innerText()).toBe('None');
  });

  it('rebuilds the board when an Event arrives', async () => {
    const { page } = ui;
    await showPanel(page, 'workitems', setup());
    const view = groupView();
    (view['workItems'] as Record<string, unknown>[]).push({ workItemId: 'urn:uuid:wi-new', state: 'offered', goal: 'Fresh work' });
    view['lastSequence'] = 43;
    await page.evaluate((next) => Object.assign((globalThis as unknown as { __mw: Record<string, unknown> }).__mw, { view: next }), view);
    await page.evaluate('window.__mwEmit({ sequence: 43, kind: "work.proposed" })');
    await page.locator('[data-state="offered"] .mw-card', { hasText: 'Fresh work' }).waitFor();
  });

  it('shows budget use per dimension as bars', async () => {
    const { page } = ui;
    await showPanel(page, 'budgets', setup());
    const meters = page.getByRole('meter');
    await expect(meters.count()).resolves.toBe(3);
    const tokens = page.getByRole('meter', { name: 'Model tokens' });
    expect(await tokens.getAttribute('aria-valuenow')).toBe('2500');
    expect(await tokens.getAttribute('aria-valuemax')).toBe('100000');
    expect(await page.locator('[data-dimension="modelTokens"] .mw-bar-fill').getAttribute('style')).toBe('width: 2.5%;');
    expect(await page.locator('[data-dimension="toolCalls"] .mw-bar').getAttribute('class')).toContain('mw-bar-exhausted');
    expect(await page.locator('[data-dimension="financialMicrounits"]').innerText()).toMatch(/12\.50/);
    expect(await page.locator('.mw-table').innerText()).toContain('Collect the figures');
  });

  it('lists Memberships with presence and sends membership.change and membership.end under the Membership Epoch', async () => {
    const { page } = ui;
    await showPanel(page, 'members', setup());
    const worker = page.locator('tbody tr', { hasText: 'Builder' });
    expect(await worker.innerText()).toContain('busy, 2/4 slots free');
    expect(await page.locator('tbody tr', { hasText: 'Planner' }).innerText()).toContain('Fixed');
    expect(await page.locator('tbody tr', { hasText: 'alice' }).innerText()).toContain('MissionOwner');
    await worker.getByRole('combobox').selectOption('reviewer');
    await worker.getByRole('button', { name: /Change role/ }).click();
    await page.locator('.mw-accepted').waitFor();
    await worker.getByRole('button', { name: /End Membership/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'End Membership' }).click();
    await page.locator('.mw-accepted', { hasText: 'membership.end' }).waitFor();
    expect(await submittedValid(page)).toEqual([
      { kind: 'membership.change', payload: { principal: { type: 'agent', id: WORKER }, roles: ['reviewer'] }, options: { expectedRevision: WORKER_EPOCH } },
      { kind: 'membership.end', payload: { principal: { type: 'agent', id: WORKER } }, options: { expectedRevision: WORKER_EPOCH } },
    ]);
    expect(await page.locator('tbody tr', { hasText: 'Critic' }).getByRole('button', { name: /Activate/ }).count()).toBe(1);
  });

  it('adds a member as a new Membership (expectedRevision 0): an Agent picked by name, a human by handle', async () => {
    const { page } = ui;
    await showPanel(page, 'members', setup());
    const form = page.getByRole('form', { name: 'Add a member' });
    // The picker offers the active Agents that are not members yet, by name.
    expect(await form.getByLabel('Agent').locator('option').allTextContents()).toEqual(['Choose an Agent', 'Scribe']);
    expect(await form.getByLabel('Human handle').isVisible()).toBe(false);
    await form.getByRole('button', { name: 'Add member' }).click();
    expect(await form.innerText()).toContain('Choose the Agent to add.');
    await form.getByLabel('Agent').selectOption({ label: 'Scribe' });
    await form.getByRole('button', { name: 'Add member' }).click();
    await page.locator('.mw-accepted').waitFor();
    await form.getByLabel('Kind').selectOption('human');
    expect(await form.getByLabel('Agent').isVisible()).toBe(false);
    await form.getByLabel('Human handle').fill('not a handle');
    await form.getByRole('button', { name: 'Add member' }).click();
    expect(await form.innerText()).toContain('Give the handle');
    await form.getByLabel('Role').selectOption('observer');
    await form.getByLabel('Human handle').fill('bob');
    await form.getByLabel('Human handle').press('Enter');
    await page.locator('.mw-accepted', { hasText: 'membership.change' }).waitFor();
    await page.waitForFunction('window.__mw.submitted.length === 2');
    expect(await submittedValid(page)).toEqual([
      { kind: 'membership.change', payload: { principal: { type: 'agent', id: SCRIBE }, roles: ['worker'] }, options: { expectedRevision: 0 } },
      { kind: 'membership.change', payload: { principal: { type: 'human', id: 'urn:missionweave:human:bob' }, roles: ['observer'] }, options: { expectedRevision: 0 } },
    ]);
  });

  it('asks before cancelling, and cancels with the expectedRevision it showed', async () => {
    const { page } = ui;
    await showPanel(page, 'interventions', setup());
    await page.getByLabel('Reason for cancelling').fill('Superseded by the new plan');
    await page.getByRole('button', { name: 'Cancel Mission…' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.innerText()).toContain(`revision ${MISSION_REVISION}`);
    await dialog.getByRole('button', { name: 'Go back' }).click();
    expect(await recorded<Submitted[]>(page, 'submitted')).toEqual([]);
    await page.getByRole('button', { name: 'Cancel Mission…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel Mission' }).click();
    await page.locator('.mw-accepted').waitFor();
    expect(await submittedValid(page)).toEqual([
      { kind: 'mission.cancel', payload: { reason: 'Superseded by the new plan' }, options: { expectedRevision: MISSION_REVISION } },
    ]);
  });

  it('shows a refusal with its code and what to do', async () => {
    const { page } = ui;
    await showPanel(page, 'interventions', { ...setup(), nextRefusal: { code: 'REVISION_CONFLICT', message: 'expected revision 7, found 8' } });
    await page.getByLabel('Reason for cancelling').fill('Stop');
    await page.getByRole('button', { name: 'Cancel Mission…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel Mission' }).click();
    const box = page.getByRole('alert').filter({ hasText: 'REVISION_CONFLICT' });
    await box.waitFor();
    expect(await box.innerText()).toMatch(/Reload the panel/);
    expect(await recorded<{ code: string }[]>(page, 'refusals')).toEqual([{ code: 'REVISION_CONFLICT', message: 'expected revision 7, found 8' }]);
    // A refused view read shows its code too, instead of an empty Panel.
    await showPanel(page, 'members', { ...setup(), viewRefusal: { code: 'GROUP_NOT_FOUND', message: 'no such Group' } });
    await page.getByRole('alert').filter({ hasText: 'GROUP_NOT_FOUND' }).waitFor();
  });

  it('reassigns the Coordinator and redacts a chosen Message', async () => {
    const { page } = ui;
    await showPanel(page, 'interventions', setup());
    // The picker names the Agents that may coordinate, members first; the current one and a revoked one are not offered.
    expect(await page.getByLabel('New Coordinator').locator('option').allTextContents()).toEqual(['Choose an Agent', 'Builder (member)', 'Critic (member)', 'Scribe']);
    await page.getByLabel('New Coordinator').selectOption({ label: 'Builder (member)' });
    await page.getByRole('button', { name: 'Appoint Coordinator…' }).click();
    const appoint = page.getByRole('alertdialog');
    expect(await appoint.innerText()).toContain('Appoint Builder as Coordinator?');
    expect(await appoint.innerText()).toContain('Planner stops coordinating');
    await appoint.getByRole('button', { name: 'Appoint Coordinator' }).click();
    await page.locator('.mw-accepted').waitFor();
    const chooser = page.locator('.mw-chooser tbody tr');
    await chooser.first().waitFor();
    expect(await chooser.count()).toBe(1);
    expect(await page.locator('.mw-chooser').innerText()).not.toContain('already redacted');
    await chooser.getByRole('radio').check();
    await page.getByLabel('Policy reason for the redaction').fill('Leaked credential');
    await page.getByRole('button', { name: 'Redact Message…' }).click();
    expect(await page.getByRole('alertdialog').innerText()).toContain('Redact the Message of Builder: “the API key is sk-123”?');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Redact Message' }).click();
    await page.locator('.mw-accepted', { hasText: 'message.redact' }).waitFor();
    const [assign, redact] = await submittedValid(page);
    expect(assign).toEqual({ kind: 'mission.assign_coordinator', payload: { coordinatorId: WORKER, leaseSeconds: 300 }, options: { expectedRevision: MISSION_REVISION } });
    expect(redact?.kind).toBe('message.redact');
    expect(redact?.payload).toMatchObject({ messageId: SECRET_MESSAGE, reason: 'Leaked credential' });
    expect(redact?.payload['amendmentId']).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(redact?.options).toEqual({ conversationId: MAIN_CONVERSATION });
    // One read of the last page of Events per build of the Panel (it rebuilds after each acceptance).
    expect(new Set(await recorded<string[]>(page, 'gets'))).toEqual(new Set([`/v1/groups/${GROUP_ID}/events?after=0&limit=200`]));
  });

  it('is operable by keyboard: Tab reaches the buttons, Enter presses them', async () => {
    const { page } = ui;
    await showPanel(page, 'interventions', setup());
    await page.getByLabel('Reason for cancelling').fill('Keyboard only');
    await page.getByLabel('Reason for cancelling').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel Mission…');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Go back');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel Mission');
    await page.keyboard.press('Enter');
    await page.locator('.mw-accepted').waitFor();
    expect((await recorded<Submitted[]>(page, 'submitted')).map((s) => s.kind)).toEqual(['mission.cancel']);
    // The Panel rebuilt under the pressed button: focus waits at the outcome, not lost on the body.
    expect(await page.evaluate('document.activeElement.className')).toBe('mw-status');
    // Escape closes a dialog without acting.
    await page.getByRole('button', { name: 'Cancel Mission…' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect((await recorded<Submitted[]>(page, 'submitted')).length).toBe(1);
  });

  it('speaks in names: no identifier and no § reference on any Panel', async () => {
    for (const id of PANELS) {
      await showPanel(ui.page, id, setup());
      await ui.page.locator('.mw-panel-body[aria-busy="false"]').waitFor();
      if (id === 'interventions') await ui.page.locator('.mw-chooser[aria-busy="false"]').waitFor();
      const text = await visibleText(ui.page);
      expect(text, id).not.toMatch(/urn:|§/);
    }
    await showPanel(ui.page, 'members', setup());
    const members = await visibleText(ui.page);
    for (const name of ['alice', 'Planner', 'Builder', 'Critic', 'MissionOwner', 'Coordinator']) expect(members).toContain(name);
    await showPanel(ui.page, 'workitems', setup());
    expect(await visibleText(ui.page)).toContain('Draft the summary');
  });

  it('renders a view with its members missing without throwing', async () => {
    for (const id of PANELS) {
      await showPanel(ui.page, id, { view: { groupId: GROUP_ID }, events: { events: [] } });
      await ui.page.locator('.mw-panel-body[aria-busy="false"]').waitFor();
    }
    expect(ui.errors).toEqual([]);
  });

  for (const width of [1280, 390]) {
    it(`nothing overflows at ${width} px`, async () => {
      const { page } = ui;
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const id of PANELS) {
        await showPanel(page, id, setup());
        await page.locator('.mw-panel-body[aria-busy="false"]').waitFor();
        if (id === 'interventions') await page.locator('.mw-chooser[aria-busy="false"]').waitFor();
        expect(await overflows(page), `${id} at ${width} px`).toBe(false);
        if (width === 1280 && process.env['MW_WRITE_SCREENSHOTS'] === '1') {
          mkdirSync('docs/console', { recursive: true });
          await page.screenshot({ path: `docs/console/${id}.png`, fullPage: true });
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }
});
