/**
 * Projection files for the runtime's tests: `home()` is a fresh folder's projection path (in a
 * subfolder when given, which the projection creates), `open()` opens one for `agentId` at a
 * fixed clock; both are closed and removed after each test.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openProjection, projectionPathIn, type LocalProjection, type ProjectionOptions } from '../../src/client/runtime/projection.js';

export function projectionFiles(agentId: string, now: number, subfolder?: string): {
  home(): string;
  open(path: string, options?: Partial<ProjectionOptions>): LocalProjection;
} {
  const folders: string[] = [];
  const opened: LocalProjection[] = [];
  afterEach(() => {
    for (const projection of opened.splice(0)) projection.close();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return {
    home() {
      const folder = mkdtempSync(join(tmpdir(), 'mw-projection-'));
      folders.push(folder);
      return projectionPathIn(subfolder === undefined ? folder : join(folder, subfolder));
    },
    open(path, options = {}) {
      const projection = openProjection({ path, agentId, clock: () => now, ...options });
      opened.push(projection);
      return projection;
    },
  };
}
