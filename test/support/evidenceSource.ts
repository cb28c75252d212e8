/**
 * Vitest setup, per test file: names the file as the source of the conformance evidence the
 * pipeline records while it runs (src/app/evidence/evidenceFile.ts); nodes the file starts
 * inherit the name with the rest of the environment.
 */

import { relative } from 'node:path';
import { expect } from 'vitest';
import { EVIDENCE_SOURCE_VARIABLE } from '../../src/app/evidence/evidenceFile.js';

const path = expect.getState().testPath;
if (path !== undefined) process.env[EVIDENCE_SOURCE_VARIABLE] = relative(process.cwd(), path);
