/**
 * The Context Package sweep of the Authority reactor (§13.3, §7.2, §8): a late joiner, a
 * provisional member, a member just activated, and a replacement Coordinator are each owed a
 * signed package limited to what their Membership allows, once per Membership Epoch or
 * Coordinator Epoch. The sweep finds them in the store and issues each package itself
 * (src/app/context/issueContextPackage.ts); it returns no Command, because a package is delivery
 * material for one recipient rather than a change of Group state, and an Event carrying it would
 * show every member what only its recipient may read.
 *
 * Like every sweep it is safe on every node at once: the store keeps one package per cause. It
 * runs on a node configured with the Organization's context generator (`settings.contextGenerator`).
 */

import type { KindRegistry } from '../../domain/kinds/kindRegistry.js';
import { membershipChanged } from '../../domain/membership/membershipChange.js';
import { missionCreated } from '../../domain/mission/missionCreate.js';
import { missionChildCreated } from '../../domain/mission/missionCreateChild.js';
import type { Pool } from '../../store/pool.js';
import { findDueContextRecipients } from '../../store/sql/contextPackages.js';
import { issueContextPackage } from '../context/issueContextPackage.js';
import type { ContextGenerator } from '../settings.js';
import type { AuthorityCommandDraft, Sweep } from './sweep.js';

export function contextPackageSweep(generator: ContextGenerator, kinds: KindRegistry): Sweep {
  return {
    name: 'context-packages',
    // What makes a member owed a package at once: a Membership granted or activated, a Mission
    // created with its members. One whose visibility starts later waits for the timer's round, and
    // so does a replacement Coordinator, whose assignments are held (BACKPRESSURE, retryable)
    // until that round stores its package (contextPackages.e2e shows the hold).
    hintedBy: [membershipChanged.kind, missionCreated.kind, missionChildCreated.kind],
    async find(pool: Pool, nowMillis: number, limit: number): Promise<readonly AuthorityCommandDraft[]> {
      const failures: unknown[] = [];
      // One at a time: each reads a Group snapshot and up to MAX_SOURCE_EVENTS Events.
      for (const due of await findDueContextRecipients(pool, limit)) {
        try {
          await issueContextPackage(pool, kinds, due, generator, nowMillis);
        } catch (error) {
          failures.push(error);
        }
      }
      // One recipient's failure does not hold back the others; the reactor logs it, and the next round retries.
      if (failures.length > 0) throw new AggregateError(failures, `${failures.length} Context Package(s) not issued`);
      return [];
    },
  };
}
