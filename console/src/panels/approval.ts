/**
 * Approval: the exact submitted revision and Artifact set, each Artifact downloaded and its
 * SHA-256 checked here in the browser, then previewed (artifactPreview.ts); then either changes
 * requested, or the normative Approval document — summarized in words, and shown in full on
 * request before signing — signed in the page over exactly that revision and those hashes, and
 * embedded in `mission.approve`. Signing is offered only once every Artifact's content has been
 * checked against its hash.
 */

import { freshUrn } from '../base64url.js';
import { el, field, replace } from '../dom.js';
import { AUTO_CHECK_MAX_BYTES } from '../limits.js';
import type { Names } from '../names.js';
import type { ConsoleContext, Json, JsonObject, Panel } from '../panel.js';
import { currentApi } from '../shell.js';
import { nowTimestamp, signDocument } from '../signing.js';
import { BlobUrls, downloadLink, renderPreview } from './artifactPreview.js';
import { when } from './viewData.js';

/** The acceptance policy version when the Mission's approval policy names none. */
const DEFAULT_POLICY_VERSION = '1.0.0';

interface PendingArtifact {
  readonly contentHash: string;
  readonly published: boolean;
  readonly artifactId: string | null;
  readonly mediaType: string | null;
  readonly sizeBytes: number | null;
  readonly workItemId: string | null;
}

let stop: (() => void) | undefined;
/** The blob URLs of the current build's previews and downloads. */
let urls = new BlobUrls();
/** Which build is current: a Mission Event and the human's own submit may both redraw at once. */
let generation = 0;
/** What the Panel on the page was built for (`shownFor`): a Mission Event that changes none of it redraws nothing. */
let shown: string | undefined;
/**
 * What the human has typed and not sent yet. A rebuild (a new revision submitted while they were
 * typing) starts from it, so no text they wrote is lost to a redraw; sent, it is cleared.
 */
const NO_DRAFTS = { feedback: '', comments: '', conditions: '' } as const;
let drafts: Record<keyof typeof NO_DRAFTS, string> = NO_DRAFTS;

/** The state, pending revision and Artifacts, and decision a build shows: a rebuild is needed only when one changed. */
function shownFor(view: JsonObject): string {
  const pending = view['pendingApproval'] as JsonObject | null | undefined;
  const approval = (view['missionNotes'] as JsonObject | undefined)?.['approval'] as JsonObject | undefined;
  return JSON.stringify([(view['mission'] as JsonObject | undefined)?.['state'] ?? null, pending?.['missionRevision'] ?? null, pending?.['artifacts'] ?? null, approval?.['approvalId'] ?? null]);
}

/** A textarea that starts from, and keeps, the draft `name`. */
function draftArea(name: keyof typeof drafts, attributes: Record<string, string | number | boolean>): HTMLTextAreaElement {
  const area = el('textarea', { name, ...attributes }) as HTMLTextAreaElement;
  area.value = drafts[name];
  area.addEventListener('input', () => (drafts = { ...drafts, [name]: area.value }));
  return area;
}

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Downloads one Artifact, hashes it here, offers the verified bytes as a file and shows their preview in `preview`. */
async function check(artifact: PendingArtifact, cell: HTMLElement, preview: HTMLElement, label: string, blobs: BlobUrls): Promise<boolean> {
  const api = currentApi();
  if (api === undefined) return false;
  try {
    const bytes = await api.download(artifact.contentHash);
    const actual = await sha256(bytes);
    if (actual !== artifact.contentHash) {
      replace(cell, el('span', { class: 'bad' }, `✗ content hashes to ${actual}`));
      return false;
    }
    replace(cell, el('span', { class: 'good' }, '✓ hash verified '), downloadLink(bytes, artifact.contentHash, blobs));
    replace(preview, renderPreview(bytes, artifact.mediaType, label, blobs));
    return true;
  } catch (error) {
    replace(cell, el('span', { class: 'bad' }, `✗ ${String((error as { code?: string }).code ?? error)}`));
    return false;
  }
}

function approvalDocument(context: ConsoleContext, view: JsonObject, pending: JsonObject, inputs: { comments: string; policy: string; conditions: string[] }): JsonObject {
  const mission = view['mission'] as JsonObject;
  return {
    approvalId: freshUrn(),
    kind: mission['parent'] === undefined ? 'mission_final' : 'child_mission',
    decision: 'approved',
    missionId: mission['missionId'] as Json,
    groupId: context.groupId,
    missionRevision: pending['missionRevision'] as Json,
    artifactHashes: ((pending['artifacts'] ?? []) as unknown as PendingArtifact[]).map((a) => a.contentHash),
    acceptancePolicyVersion: inputs.policy,
    approver: { type: 'human', id: context.me.id },
    comments: inputs.comments,
    conditions: inputs.conditions,
    occurredAt: nowTimestamp(),
  };
}

function decided(view: JsonObject, names: Names): HTMLElement {
  const mission = view['mission'] as JsonObject | undefined;
  const approval = (view['missionNotes'] as JsonObject | undefined)?.['approval'] as JsonObject | undefined;
  if (approval === undefined) return el('p', { class: 'muted' }, `Nothing awaits your approval: the Mission is ${String(mission?.['state'] ?? 'unknown')}.`);
  return el('div', {},
    el('p', { class: 'good' }, `Approved revision ${String(approval['missionRevision'])} by ${names.principal(approval['approver'])}, ${when(String(approval['occurredAt']))}.`),
    el('details', {}, el('summary', {}, 'The signed Approval document'), el('pre', { class: 'document' }, JSON.stringify(approval, null, 2))));
}

/** Builds the Panel into `root` (a detached element); `show` puts it on the page; resolves after the hash checks. */
/** "Artifact 1 (from “Draft the agenda”)": what the human calls it. */
function artifactLabel(artifact: PendingArtifact, index: number, names: Names): string {
  return `Artifact ${index + 1}${artifact.workItemId === null ? '' : ` (from “${names.workItem(artifact.workItemId)}”)`}`;
}

/** `wanted`: whether to build for the view read (a newer build was asked for, or it would show what is shown). */
async function build(root: HTMLElement, context: ConsoleContext, wanted: (view: JsonObject) => boolean, show: () => boolean, blobs: BlobUrls): Promise<void> {
  const view = await context.view();
  if (!wanted(view)) return;
  const names = (await context.names()).withView(view);
  const pending = view['pendingApproval'] as JsonObject | null | undefined;
  if (pending === null || pending === undefined) {
    root.append(decided(view, names));
    show();
    return;
  }
  const artifacts = (pending['artifacts'] ?? []) as unknown as PendingArtifact[];
  const labels = artifacts.map((a, i) => artifactLabel(a, i, names));
  const cells = artifacts.map(() => el('td', { class: 'check' }, 'checking…'));
  const previews = artifacts.map(() => el('div', { class: 'preview-slot' }, el('p', { class: 'muted' }, 'The preview appears once the content matches its hash.')));
  root.append(
    el('p', { class: 'submitted' }, `Revision ${String(pending['missionRevision'])} was submitted for approval ${when(String(pending['submittedAt']))} with ${artifacts.length} Artifact(s):`),
    el('div', { class: 'scroll' }, el('table', { class: 'artifacts' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Artifact'), el('th', { scope: 'col' }, 'Type'), el('th', { scope: 'col' }, 'Size'), el('th', { scope: 'col' }, 'Check'))),
      el('tbody', {}, ...artifacts.map((a, i) => el('tr', {},
        el('td', {}, labels[i], el('br', {}), el('code', { class: 'wrap hash' }, a.contentHash)), el('td', {}, a.mediaType ?? '—'), el('td', {}, a.sizeBytes === null ? '—' : `${a.sizeBytes.toLocaleString()} bytes`), cells[i] as HTMLElement))))),
    ...artifacts.map((_a, i) => el('section', { class: 'card artifact-preview', 'aria-label': `Preview of ${labels[i] as string}` },
      el('h2', {}, `Preview: ${labels[i] as string}`), previews[i] as HTMLElement)));

  const feedback = draftArea('feedback', { rows: 2, required: true, maxlength: 4000 });
  const changes = el('form', { class: 'card', 'aria-labelledby': 'changes-title' },
    el('h2', { id: 'changes-title' }, 'Request changes'),
    field('What must change', feedback),
    el('button', { type: 'submit' }, 'Request changes'));
  changes.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const result = await context.submit('mission.request_changes', { missionRevision: pending['missionRevision'] as Json, feedback: feedback.value.trim() });
      if (!result.ok) return context.showRefusal(result.error);
      drafts = NO_DRAFTS;
      redraw(context);
    })();
  });

  const mission = view['mission'] as JsonObject;
  const policy = el('input', { name: 'policy', value: String((mission['approvalPolicy'] as JsonObject | undefined)?.['policyVersion'] ?? DEFAULT_POLICY_VERSION), pattern: '\\d+\\.\\d+\\.\\d+' });
  const comments = draftArea('comments', { rows: 2, maxlength: 4000 });
  const conditions = draftArea('conditions', { rows: 2 });
  const preview = el('pre', { class: 'document', 'aria-label': 'The Approval you sign' });
  const title = String((view['missionNotes'] as JsonObject | undefined)?.['title'] ?? 'this Mission');
  const summary = el('p', { class: 'sign-summary' });
  const approve = el('button', { type: 'submit', disabled: true }, 'Sign and approve');
  const inputs = () => ({ comments: comments.value.trim(), policy: policy.value.trim(), conditions: conditions.value.split('\n').map((c) => c.trim()).filter((c) => c !== '') });
  const showPreview = (): void => {
    const { policy: version, conditions: list } = inputs();
    summary.textContent = `You approve revision ${String(pending['missionRevision'])} of “${title}” and exactly the ${artifacts.length} Artifact(s) above, as ${names.of(context.me.id)}, under acceptance policy ${version}${list.length === 0 ? '' : `, on ${list.length} condition(s)`}.`;
    preview.textContent = JSON.stringify(approvalDocument(context, view, pending, inputs()), null, 2);
  };
  for (const input of [policy, comments, conditions]) input.addEventListener('input', showPreview);
  showPreview();
  const approval = el('form', { class: 'card', 'aria-labelledby': 'approve-title' },
    el('h2', { id: 'approve-title' }, 'Approve'),
    field('Comments', comments), field('Conditions', conditions, 'One per line; optional.'), field('Acceptance policy version', policy),
    summary,
    el('details', {}, el('summary', {}, 'The exact document you sign'), el('p', {}, 'Its approvalId and time are fixed when you sign.'), preview),
    approve);
  approval.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const api = currentApi();
      if (api === undefined) return;
      const document = await signDocument(approvalDocument(context, view, pending, inputs()), 'occurredAt', api.identity);
      const payload: JsonObject = { approvalId: document['approvalId'] as Json, missionRevision: document['missionRevision'] as Json, artifactHashes: document['artifactHashes'] as Json, acceptancePolicyVersion: document['acceptancePolicyVersion'] as Json, approval: document };
      if (document['comments'] !== '') payload['comments'] = document['comments'] as Json;
      const result = await context.submit('mission.approve', payload);
      if (!result.ok) return context.showRefusal(result.error);
      drafts = NO_DRAFTS;
      redraw(context);
    })();
  });
  root.append(el('div', { class: 'decide' }, changes, approval));
  if (!show()) return;
  const verified = artifacts.map(() => false);
  const settle = (): void => {
    approve.disabled = !(verified.length > 0 && verified.every(Boolean));
    approve.title = approve.disabled ? 'Every Artifact must download and match its hash first' : '';
  };
  const checkOne = async (index: number): Promise<void> => {
    verified[index] = await check(artifacts[index] as PendingArtifact, cells[index] as HTMLElement, previews[index] as HTMLElement, labels[index] as string, blobs);
    settle();
  };
  settle();
  await Promise.all(artifacts.map((artifact, index) => {
    if ((artifact.sizeBytes ?? 0) <= AUTO_CHECK_MAX_BYTES) return checkOne(index);
    replace(cells[index] as HTMLElement, el('button', { type: 'button', class: 'small', onclick: () => void checkOne(index) }, 'Download and check'));
    return undefined;
  }));
}

let target: HTMLElement | undefined;

/**
 * Rebuilds the Panel; only the latest build reaches the page. `changed`: only if the view read
 * shows another state, pending revision, Artifact set or decision than the Panel on the page.
 */
async function draw(context: ConsoleContext, changed = false): Promise<void> {
  const mine = ++generation;
  const fresh = el('div', { class: 'approval' });
  const blobs = new BlobUrls();
  let key: string | undefined;
  const wanted = (view: JsonObject): boolean => {
    key = shownFor(view);
    return mine === generation && !(changed && key === shown);
  };
  await build(fresh, context, wanted, () => {
    if (mine !== generation || target === undefined) {
      blobs.revokeAll();
      return false;
    }
    target.replaceChildren(fresh);
    shown = key;
    // The previous build's previews and downloads are gone from the page: free their bytes.
    urls.revokeAll();
    urls = blobs;
    return true;
  }, blobs);
}

function redraw(context: ConsoleContext, changed = false): void {
  draw(context, changed).catch((error: unknown) => context.showRefusal(error as never));
}

async function render(root: HTMLElement, context: ConsoleContext): Promise<void> {
  stop?.();
  target = root;
  shown = undefined;
  drafts = NO_DRAFTS;
  // A Mission transition (a resubmission, a decision elsewhere) redraws what there is to decide;
  // an Event that changes none of it (one arriving late, after a redraw it already shows) does not
  // take the form the human is filling in from under them.
  stop = context.onEvent((event) => {
    if (String(event['kind']).startsWith('mission.')) redraw(context, true);
  });
  await draw(context);
}

export const approvalPanel: Panel = {
  id: 'approval',
  title: 'Approval',
  render,
  dispose() {
    stop?.();
    stop = undefined;
    target = undefined;
    generation++;
    urls.revokeAll();
  },
};
