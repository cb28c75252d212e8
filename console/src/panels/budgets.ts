/**
 * Budget use per dimension: for each dimension the Mission's budget grants, what its
 * WorkItems used against the limit, as a bar and as numbers, and which WorkItems exhaustion has
 * paused. Read-only; it rebuilds as usage Events arrive.
 */
import type { Names } from '../names.js';
import type { JsonObject } from '../panel.js';
import { WARN_SHARE } from './panelLimits.js';
import { h, table } from './ui.js';
import { DASH, dash, list, num, obj, str, when } from './viewData.js';
import { viewPanel } from './viewPanel.js';

const DIMENSION_LABELS: Readonly<Record<string, string>> = {
  financialMicrounits: 'Spend',
  modelTokens: 'Model tokens',
  toolCalls: 'Tool calls',
  computeSeconds: 'Compute seconds',
  wallClockSeconds: 'Wall-clock seconds',
  externalActions: 'External side effects',
};

const MICROUNITS_PER_UNIT = 1_000_000;

/** An amount of the dimension as the human reads it; money arrives in millionths of its currency. */
function amount(value: number | undefined, dimension: string, currency: string | undefined): string {
  if (value === undefined) return DASH;
  if (dimension !== 'financialMicrounits') return value.toLocaleString();
  const units = value / MICROUNITS_PER_UNIT;
  if (currency === undefined) return units.toLocaleString(undefined, { maximumFractionDigits: 6 });
  try {
    return units.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    // Not an ISO 4217 code Intl knows: show the code beside the number instead.
    return `${units.toLocaleString(undefined, { maximumFractionDigits: 6 })} ${currency}`;
  }
}

function bar(line: JsonObject): HTMLElement {
  const dimension = str(line, 'dimension') ?? '';
  const label = DIMENSION_LABELS[dimension] ?? (dimension === '' ? DASH : dimension);
  const currency = str(line, 'currency');
  const limit = num(line, 'limit');
  const used = num(line, 'used');
  const remaining = num(line, 'remaining') ?? (limit !== undefined && used !== undefined ? limit - used : undefined);
  const share = limit !== undefined && used !== undefined && limit > 0 ? used / limit : limit === 0 ? 1 : undefined;
  const percent = share === undefined ? undefined : Math.round(share * 1000) / 10;
  const level = share === undefined ? 'unknown' : share >= 1 ? 'exhausted' : share >= WARN_SHARE ? 'warn' : 'ok';
  const usedText = amount(used, dimension, currency);
  const limitText = amount(limit, dimension, currency);
  const labelId = `mw-budget-${dimension}`;
  const meter = h('div', {
    className: `mw-bar mw-bar-${level}`,
    attrs: {
      role: 'meter',
      'aria-labelledby': labelId,
      'aria-valuemin': '0',
      'aria-valuemax': String(limit ?? 0),
      'aria-valuenow': String(Math.min(used ?? 0, limit ?? used ?? 0)),
      'aria-valuetext': `${usedText} of ${limitText}${percent === undefined ? '' : ` (${percent}%)`}`,
    },
  });
  const fill = h('div', { className: 'mw-bar-fill' });
  fill.style.width = `${Math.min(100, Math.max(0, percent ?? 0))}%`;
  meter.append(fill);
  return h(
    'li',
    { className: 'mw-budget', attrs: { 'data-dimension': dimension } },
    h('div', { className: 'mw-budget-head' }, h('span', { className: 'mw-budget-label', attrs: { id: labelId } }, label), h('span', { className: 'mw-budget-share' }, percent === undefined ? DASH : `${percent}%`)),
    meter,
    h('p', { className: 'mw-budget-numbers' }, `Used ${usedText} of ${limitText} · ${amount(remaining, dimension, currency)} left`),
  );
}

export function buildBudgets(view: JsonObject, names: Names): Node[] {
  const lines = list(view, 'budgets');
  const nodes: Node[] = [
    lines.length === 0
      ? h('p', { className: 'mw-empty' }, 'The Mission grants no budget dimension, or this view does not show it.')
      : h('ul', { className: 'mw-budgets' }, ...lines.map(bar)),
  ];
  const paused = list(view, 'workItems').filter((item) => obj(item, 'budgetPause') !== undefined);
  if (paused.length > 0) {
    nodes.push(
      table(
        'WorkItems paused because a budget ran out: they resume after a budget revision',
        ['WorkItem', 'Budget', 'Charged to', 'Since'],
        paused.map((item) => {
          const pause = obj(item, 'budgetPause');
          const dimension = str(pause, 'dimension') ?? '';
          return [str(item, 'goal') ?? names.workItem(str(item, 'workItemId')), DIMENSION_LABELS[dimension] ?? dash(dimension), names.label(str(pause, 'accountId')), when(str(pause, 'since'))];
        }),
      ),
    );
  }
  return nodes;
}

export const budgetsPanel = viewPanel({
  id: 'budgets',
  title: 'Budgets',
  subtitle: 'What the work used of the Mission budget, per granted dimension.',
  follow: 'rebuild',
  build: async (view, context) => buildBudgets(view, (await context.names()).withView(view)),
});
