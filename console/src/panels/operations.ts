/**
 * The operation Panels of a Group (WorkItems board, budgets, members and presence,
 * interventions): one module each, listed here so the shell picks them up without an edit.
 * The shell's own Panels (timeline, Approval) are listed beside them in ./index.ts.
 */
import type { Panel } from '../panel.js';

export const operationPanels: readonly Panel[] = [];
