/**
 * AddressSlots: a per-address cap whose slots come back exactly once, whatever path the socket
 * that held one took to its close.
 */

import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AddressSlots } from '../src/transport/addressSlots.js';

function fakeSocket(destroyed = false): Socket & EventEmitter {
  return Object.assign(new EventEmitter(), { destroyed }) as unknown as Socket & EventEmitter;
}

describe('AddressSlots', () => {
  it('gives each address at most `limit` slots, independently of other addresses', () => {
    const slots = new AddressSlots(2);
    expect(slots.take('a')).toBeTypeOf('function');
    expect(slots.take('a')).toBeTypeOf('function');
    expect(slots.take('a')).toBeUndefined();
    expect(slots.take('b')).toBeTypeOf('function');
    expect(slots.heldBy('a')).toBe(2);
  });

  it('counts a release once, however often it is called', () => {
    const slots = new AddressSlots(2);
    const release = slots.take('a');
    slots.take('a');
    release?.();
    release?.();
    expect(slots.heldBy('a')).toBe(1);
  });

  it('holds a slot while the socket is open and returns it on close', () => {
    const slots = new AddressSlots(1);
    const socket = fakeSocket();
    expect(slots.holdWhileOpen('a', socket)).toBeTypeOf('function');
    expect(slots.holdWhileOpen('a', fakeSocket())).toBeUndefined();
    socket.emit('close');
    expect(slots.heldBy('a')).toBe(0);
  });

  it('takes nothing for a socket that is already destroyed', () => {
    const slots = new AddressSlots(1);
    expect(slots.holdWhileOpen('a', fakeSocket(true))).toBeUndefined();
    expect(slots.heldBy('a')).toBe(0);
  });
});
