/**
 * The operation Panels of a Group (WorkItems board, budgets, members and presence,
 * interventions): one module each, listed here so the shell picks them up without an edit.
 * The shell's own Panels (timeline, Approval) are listed beside them in ./index.ts.
 */
import type { Panel } from '../panel.js';
import './panels.css';
import { budgetsPanel } from './budgets.js';
import { interventionsPanel } from './interventions.js';
import { membersPanel } from './members.js';
import { workItemsPanel } from './workItems.js';

export const operationPanels: readonly Panel[] = [workItemsPanel, budgetsPanel, membersPanel, interventionsPanel];
