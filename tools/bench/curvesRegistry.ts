/**
 * The registry curve: what one card registration made elsewhere costs a node's Registry copy
 * as the Organization grows. Before `registryCatchUp.ts` every other process and node reloaded
 * the whole Registry (every binding read and its public key imported, every card document
 * parsed: `fullReloadMs`); now it reads the rows of the revisions it missed
 * (`catchUpOneCardMs`). Also the in-process `KeyRegistry.extend` by one binding
 * (`extendOneBindingUs`, its point proof skipped), which copied both key indexes before they were `LayeredMap`s. The
 * Agents are registered through the store-layer seed (curvesAgents.ts).
 */

import { randomUUID } from 'node:crypto';
import { loadRegistrySnapshot } from '#src/app/registrySnapshot.js';
import { catchUpRegistry } from '#src/app/registryCatchUp.js';
import { generatePrivateKey, publicKeyBase64url } from '#src/protocol/signing/signDocument.js';
import { timestampOf } from '#src/app/issueDocuments.js';
import { readRegistryRevision } from '#src/store/sql/registry.js';
import { log } from './benchPhases.js';
import { seedAgents } from './curvesAgents.js';
import { median, type CurvePoint } from './curvesPlan.js';
import type { CurveWorld } from './curvesRun.js';

/** Measurements per point; the median is reported. */
const ROUNDS = 3;

export async function registryCurve(cw: CurveWorld, sizes: readonly number[]): Promise<CurvePoint[]> {
  const pool = cw.world.running.pool;
  const organizationId = cw.world.authority.settings.services.organizationId;
  const points: CurvePoint[] = [];
  let seeded = 0;
  for (const size of [...sizes].sort((a, b) => a - b)) {
    if (size > seeded) await seedAgents(cw.world, `registry-${seeded}`, size - seeded);
    seeded = Math.max(seeded, size);
    const full: number[] = [];
    const catchUp: number[] = [];
    const extend: number[] = [];
    let bindings = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      const before = await loadRegistrySnapshot(pool, organizationId);
      full.push(performance.now() - started);
      bindings = before.registry.size;
      // One more card registered "elsewhere" (another process's transaction, as far as `before` knows).
      await seedAgents(cw.world, `registry-extra-${size}-${round}`, 1);
      const revision = await readRegistryRevision(pool, organizationId);
      started = performance.now();
      const caughtUp = await catchUpRegistry(pool, before, revision);
      catchUp.push(performance.now() - started);
      if (caughtUp === undefined || caughtUp.agents.size !== before.agents.size + 1) throw new Error('the catch-up did not add the one card registered');
      const binding = { keyId: `urn:uuid:${randomUUID()}`, principal: { type: 'agent' as const, id: `urn:missionweave:agent:extend-${round}` }, algorithm: 'Ed25519', publicKey: publicKeyBase64url(generatePrivateKey()), validFrom: timestampOf(Date.now()), validityHistory: [] };
      started = performance.now();
      // The point's prime-order proof skipped (done once per key, ~0.9 ms): the index cost alone.
      caughtUp.registry.extend([binding], { pointsAlreadyProven: true });
      extend.push((performance.now() - started) * 1000);
    }
    log(`registry of ${bindings} bindings: full reload ${median(full).toFixed(0)} ms, catch-up by one card ${median(catchUp).toFixed(1)} ms, extend by one binding ${median(extend).toFixed(0)} µs`);
    points.push({ size, figures: { bindings, fullReloadMs: median(full), catchUpOneCardMs: median(catchUp), extendOneBindingUs: median(extend) } });
  }
  return points;
}
