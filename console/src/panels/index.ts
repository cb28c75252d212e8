/**
 * Every Panel of a Group, in tab order: the shell's own (the live timeline, Approval) and the
 * operation Panels (./operations.ts). Adding a screen is one module and one entry here.
 */

import type { Panel } from '../panel.js';
import { approvalPanel } from './approval.js';
import { operationPanels } from './operations.js';
import { timelinePanel } from './timeline.js';

export function panels(): readonly Panel[] {
  return [timelinePanel, ...operationPanels, approvalPanel];
}
