/**
 * The console's live timeline (console/src/panels/timeline.ts) in headless Chromium: history
 * newest first, filtered by kind and by actor, a live Event shown once when it matches the
 * filters and kept (hidden) when it does not, and the directive box posting a `message.post` to
 * the main Conversation.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { COORDINATOR, GROUP_ID, MAIN_CONVERSATION, OWNER, WORKER, directory, groupView } from './support/consoleFixture.js';
import { CHROMIUM, openPanelsPage, recorded, showPanel, type PanelsPage } from './support/consolePage.js';

function event(sequence: number, kind: string, actorId: string, payload: Record<string, unknown> = {}): Record<string, unknown> {
  const type = actorId.startsWith('urn:missionweave:human:') ? 'human' : 'agent';
  return { sequence, kind, groupId: GROUP_ID, actor: { type, id: actorId }, occurredAt: new Date(Date.UTC(2026, 0, 1, 9, sequence)).toISOString(), payload };
}

function message(sequence: number, actorId: string, text: string): Record<string, unknown> {
  return event(sequence, 'message.posted', actorId, { message: { conversationId: MAIN_CONVERSATION, author: { type: 'agent', id: actorId }, content: [{ type: 'text', text }] } });
}

const HISTORY = [
  event(1, 'mission.created', OWNER.id),
  message(2, COORDINATOR, 'plan drafted'),
  message(3, WORKER, 'figures collected'),
  event(4, 'work.proposed', COORDINATOR),
];

/** The sequences the timeline shows now, top to bottom. */
async function shown(page: PanelsPage['page']): Promise<number[]> {
  return (await page.locator('ol.timeline li.event').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-sequence')))));
}

describe.skipIf(!existsSync(CHROMIUM))('the console timeline in a browser', () => {
  let ui: PanelsPage;
  beforeAll(async () => {
    ui = await openPanelsPage();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('shows the history newest first and filters it by kind and by actor', async () => {
    const { page } = ui;
    await showPanel(page, 'timeline', { view: groupView(), events: { events: HISTORY, lastSequence: 4 }, agents: directory() });
    expect(await shown(page)).toEqual([4, 3, 2, 1]);
    expect(await page.locator('li.event[data-sequence="3"] .summary').innerText()).toBe('figures collected');
    const kinds = await page.getByLabel('Kind').locator('option').allTextContents();
    expect(kinds).toEqual(['All kinds', 'message.posted', 'mission.created', 'work.proposed']);

    await page.getByLabel('Kind').selectOption('message.posted');
    expect(await shown(page)).toEqual([3, 2]);
    // Actors by name: the directory's for Agents, the handle for a human; never an identifier.
    expect(await page.getByLabel('Actor').locator('option').allTextContents()).toEqual(['All actors', 'Builder', 'Planner', 'alice']);
    expect(await page.locator('ol.timeline').innerText()).not.toMatch(/urn:/);
    await page.getByLabel('Actor').selectOption('Planner');
    expect(await shown(page)).toEqual([2]);
    await page.getByLabel('Kind').selectOption('mission.created');
    expect(await shown(page)).toEqual([]);
    expect(await page.locator('ol.timeline').innerText()).toContain('No Events match.');
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Actor').selectOption('');
    expect(await shown(page)).toEqual([4, 3, 2, 1]);
    expect(ui.errors).toEqual([]);
  });

  it('adds a live Event once, under the filters, and keeps a hidden one for later', async () => {
    const { page } = ui;
    await showPanel(page, 'timeline', { view: groupView(), events: { events: HISTORY, lastSequence: 4 }, agents: directory() });
    await page.getByLabel('Kind').selectOption('message.posted');
    const emit = (e: Record<string, unknown>) => page.evaluate((given) => (globalThis as unknown as { __mwEmit(e: unknown): void }).__mwEmit(given), e);
    await emit(message(5, WORKER, 'draft attached'));
    await emit(message(5, WORKER, 'draft attached'));
    await emit(event(6, 'work.claimed', WORKER));
    expect(await shown(page)).toEqual([5, 3, 2]);
    expect(await page.getByLabel('Kind').inputValue()).toBe('message.posted');
    await page.getByLabel('Kind').selectOption('work.claimed');
    expect(await shown(page)).toEqual([6]);
  });

  it('posts a directive to the main Conversation as a message.post', async () => {
    const { page } = ui;
    await showPanel(page, 'timeline', { view: groupView(), events: { events: HISTORY, lastSequence: 4 }, agents: directory() });
    await page.getByLabel('Directive to the Mission').fill('Prioritise the EU figures.');
    await page.getByRole('button', { name: 'Post directive' }).click();
    const submitted = await recorded<{ kind: string; payload: Record<string, unknown> }[]>(page, 'submitted');
    expect(submitted.map((s) => s.kind)).toEqual(['message.post']);
    expect(submitted[0]?.payload).toMatchObject({ conversationId: MAIN_CONVERSATION, content: 'Prioritise the EU figures.' });
    expect(schemaRegistry().validatePayload('message.post', submitted[0]?.payload as never)).toEqual({ ok: true });
    expect(await page.getByLabel('Directive to the Mission').inputValue()).toBe('');
  });
});
