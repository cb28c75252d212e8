/**
 * The bounds on open event streams (`streamSlots.ts`): per reader and on the node, each slot
 * given back once however often its release runs.
 */

import { expect, it } from 'vitest';
import { StreamSlots } from '../src/transport/streamSlots.js';

it('refuses a reader at its bound and everyone at the node’s, and gives slots back once', () => {
  const slots = new StreamSlots(2, 3);
  const a1 = slots.take('human alice');
  const a2 = slots.take('human alice');
  expect(slots.take('human alice')).toBe('reader-full');
  const b1 = slots.take('agent bob');
  expect(slots.take('agent carol')).toBe('node-full');
  expect(slots.size).toBe(3);
  if (typeof a1 !== 'function' || typeof a2 !== 'function' || typeof b1 !== 'function') throw new Error('expected slots');
  a1();
  a1();
  expect(slots.size).toBe(2);
  expect(typeof slots.take('human alice')).toBe('function');
  expect(slots.take('agent carol')).toBe('node-full');
  b1();
  expect(typeof slots.take('agent carol')).toBe('function');
});
