/**
 * The Approval Panel (console/src/panels/approval.ts) in headless Chromium, over a fixture view:
 * what the human types is never taken from under them. A Mission Event that changes nothing the
 * Panel shows (one arriving late, after a redraw that already shows its revision) leaves the form
 * as it is; a new revision submitted while they type rebuilds the Panel with their text kept; a
 * decision replaces the form. The console e2e (console.browser.e2e) once approved with empty
 * comments on the Citus cluster: the resubmission's own Event came after the human had typed, and
 * its redraw emptied the form.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openPanelsPage, showPanel, type PanelsPage } from './support/consolePage.js';

const GROUP = 'urn:missionweave:group:approval-fixture';

/** The Group's view with `revision` pending approval (no Artifacts: nothing to download), or decided. */
function view(revision: number, decided = false): Record<string, unknown> {
  const mission = { missionId: 'urn:missionweave:mission:approval-fixture', state: decided ? 'completed' : 'awaiting_approval', approvalPolicy: { policyVersion: '1.0.0' } };
  const approval = { approvalId: 'urn:uuid:approval-1', missionRevision: revision, approver: { type: 'human', id: 'urn:missionweave:human:alice' }, occurredAt: '2026-12-05T18:00:00.000Z' };
  return {
    groupId: GROUP,
    mission,
    missionNotes: { title: 'Plan the offsite', ...(decided ? { approval } : {}) },
    pendingApproval: decided ? null : { missionRevision: revision, submittedAt: '2026-12-05T17:00:00.000Z', artifacts: [] },
  };
}

describe.skipIf(!existsSync(CHROMIUM))('the Approval Panel keeps what the human types', () => {
  let ui: PanelsPage;
  beforeAll(async () => {
    ui = await openPanelsPage();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  /** Emits a Mission Event with the view set to `next`, and returns once the Panel has handled it (its view read and everything after it). */
  async function missionEvent(next: Record<string, unknown>): Promise<void> {
    await ui.page.evaluate(async (given) => {
      const mw = (globalThis as unknown as { __mw: Record<string, unknown>; __mwEmit(e: unknown): void }).__mw;
      Object.assign(mw, { view: given });
      const before = mw['views'] as number;
      (globalThis as unknown as { __mwEmit(e: unknown): void }).__mwEmit({ sequence: 10, kind: 'mission.submitted_for_approval' });
      if ((mw['views'] as number) !== before + 1) throw new Error('the Panel did not read the view');
      // Everything from the view read to the page is promise work: done before the next task.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }, next);
  }

  it('a Mission Event that changes nothing shown leaves the form, and the text in it, as it is', async () => {
    const { page } = ui;
    await showPanel(page, 'approval', { view: view(4) });
    await page.getByText('Revision 4 was submitted').waitFor();
    await page.getByLabel('Comments').fill('Looks right. Ship it.');
    await page.getByLabel('What must change').fill('Add a lunch break.');
    await page.locator('textarea[name="comments"]').evaluate((area) => area.setAttribute('data-mark', 'typed-in'));
    await missionEvent(view(4));
    expect(await page.locator('textarea[name="comments"]').getAttribute('data-mark')).toBe('typed-in');
    expect(await page.getByLabel('Comments').inputValue()).toBe('Looks right. Ship it.');
    expect(await page.getByLabel('What must change').inputValue()).toBe('Add a lunch break.');
    expect(await page.getByLabel('The Approval you sign').textContent()).toContain('"comments": "Looks right. Ship it."');
  });

  it('a new revision submitted while the human types rebuilds the Panel for it, their text kept; a decision replaces the form', async () => {
    const { page } = ui;
    await showPanel(page, 'approval', { view: view(4) });
    await page.getByText('Revision 4 was submitted').waitFor();
    await page.getByLabel('Comments').fill('Looks right.');
    await page.getByLabel('Conditions').fill('Book the room');
    await missionEvent(view(6));
    await page.getByText('Revision 6 was submitted').waitFor();
    expect(await page.getByLabel('Comments').inputValue()).toBe('Looks right.');
    expect(await page.getByLabel('Conditions').inputValue()).toBe('Book the room');
    expect(await page.locator('.sign-summary').textContent()).toContain('revision 6 of “Plan the offsite”');
    expect(await page.locator('.sign-summary').textContent()).toContain('on 1 condition(s)');
    await missionEvent(view(6, true));
    await page.getByText('Approved revision 6 by').waitFor();
    expect(await page.getByLabel('Comments').count()).toBe(0);
  });

  it('opened again, the Panel starts from an empty form', async () => {
    const { page } = ui;
    await showPanel(page, 'approval', { view: view(4) });
    await page.getByLabel('Comments').fill('a draft left behind');
    await showPanel(page, 'approval', { view: view(4) });
    await page.getByText('Revision 4 was submitted').waitFor();
    expect(await page.getByLabel('Comments').inputValue()).toBe('');
    expect(ui.errors).toEqual([]);
  });
});
