/**
 * What the four operation Panels share: read the Group's view, build from it, follow the live
 * Events, and drop the listener and timer when the human leaves.
 *
 * Two ways to follow the Group. A read-only Panel (board, budgets) rebuilds itself shortly after
 * Events arrive. A Panel with forms (members, interventions) does not: a rebuild would wipe what
 * the human is typing, and its Commands carry the `expectedRevision` of the view they were
 * decided on (§5.3 optimistic concurrency), so it says that the Group moved and offers a reload.
 */
import type { CommandOptions, ConsoleContext, JsonObject, Panel, Refusal } from '../panel.js';
import { REFRESH_DELAY_MS } from './panelLimits.js';
import { button, h, panelHeader, refusalBox, statusRegion, submitCommand } from './ui.js';
import { num, str } from './viewData.js';

export interface PanelTools {
  /** The Panel's live region for Command outcomes; it survives rebuilds. */
  readonly status: HTMLElement;
  /** Reads the view again and rebuilds the Panel. */
  reload(): Promise<void>;
  /** Submits a Command, reports it in `status`, and rebuilds from a fresh view once accepted. */
  act(kind: string, payload: JsonObject, options?: CommandOptions): Promise<boolean>;
}

export interface ViewPanelSpec {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly follow: 'rebuild' | 'notice';
  build(view: JsonObject, context: ConsoleContext, tools: PanelTools): Node[] | Promise<Node[]>;
}

function asRefusal(error: unknown): Refusal {
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string') {
    const { code, message } = error as { code: string; message?: unknown };
    return { code, message: typeof message === 'string' ? message : '' };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

export function viewPanel(spec: ViewPanelSpec): Panel {
  let stop: (() => void) | undefined;
  return {
    id: spec.id,
    title: spec.title,
    dispose() {
      stop?.();
      stop = undefined;
    },
    async render(root, context) {
      stop?.();
      const status = statusRegion();
      const notice = h('div', { className: 'mw-notice', attrs: { 'aria-live': 'polite' } });
      const body = h('div', { className: 'mw-panel-body', attrs: { 'aria-busy': 'true' } });
      root.append(h('section', { className: `mw-panel mw-panel-${spec.id}`, attrs: { 'aria-label': spec.title } }, panelHeader(spec.title, spec.subtitle), notice, status, body));
      let seenSequence = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let generation = 0;
      const tools: PanelTools = {
        status,
        reload,
        async act(kind, payload, options) {
          const accepted = await submitCommand(context, status, kind, payload, options);
          if (accepted) await reload();
          // The rebuild replaced the button that had focus: keep keyboard users at the outcome.
          if (!(document.activeElement instanceof HTMLElement) || document.activeElement === document.body || !document.activeElement.isConnected) status.focus();
          return accepted;
        },
      };

      async function reload(): Promise<void> {
        generation += 1;
        const mine = generation;
        body.setAttribute('aria-busy', 'true');
        try {
          const view = await context.view();
          // A slower, older read must not overwrite a newer one.
          if (mine !== generation) return;
          seenSequence = num(view, 'lastSequence') ?? seenSequence;
          const nodes = await spec.build(view, context, tools);
          if (mine !== generation) return;
          notice.replaceChildren();
          body.replaceChildren(...nodes);
        } catch (error) {
          const refusal = asRefusal(error);
          context.showRefusal(refusal);
          body.replaceChildren(refusalBox(refusal));
        } finally {
          if (mine === generation) body.setAttribute('aria-busy', 'false');
        }
      }

      function onEvent(event: JsonObject): void {
        const sequence = num(event, 'sequence');
        if (sequence !== undefined && sequence <= seenSequence) return;
        if (spec.follow === 'rebuild') {
          clearTimeout(timer);
          timer = setTimeout(() => void reload(), REFRESH_DELAY_MS);
          return;
        }
        const kind = str(event, 'kind') ?? 'an Event';
        notice.replaceChildren(
          h('p', {}, `The Group changed (${kind}${sequence === undefined ? '' : `, sequence ${sequence}`}) since this view was read.`),
          button('Reload view', () => void reload()),
        );
      }

      const unsubscribe = context.onEvent(onEvent);
      stop = () => {
        unsubscribe();
        clearTimeout(timer);
      };
      await reload();
    },
  };
}
