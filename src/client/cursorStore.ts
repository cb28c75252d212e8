/**
 * Where an Agent keeps its Cursors: per Group, the highest contiguous sequence its handler has
 * processed (§16). The SDK loads a Group's Cursor when it subscribes, and saves it after each
 * Event's handler resolved, before it acknowledges the Event and before it hands over the next.
 *
 * - `MemoryCursorStore` — for tests and Agents that replay from the start on every run.
 * - `FileCursorStore(path)` — one JSON file `{"<groupId>": <sequence>, …}`, replaced atomically
 *   (a temporary file written and fsynced in the same directory, then renamed over the old
 *   one), so a crash leaves either the previous Cursors or the new ones, never a torn file.
 *   Saves that arrive while a write is queued share that write.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface CursorStore {
  /** The saved Cursor of a Group, or undefined when none was ever saved. */
  load(groupId: string): Promise<number | undefined>;
  /** Durably records that every Event of the Group up to `sequence` was processed. */
  save(groupId: string, sequence: number): Promise<void>;
}

export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, number>();

  load(groupId: string): Promise<number | undefined> {
    return Promise.resolve(this.cursors.get(groupId));
  }

  save(groupId: string, sequence: number): Promise<void> {
    this.cursors.set(groupId, sequence);
    return Promise.resolve();
  }
}

export class FileCursorStore implements CursorStore {
  private cursors: Promise<Map<string, number>> | undefined;
  /** The write that has not started yet; later saves join it. */
  private queued: Promise<void> | undefined;
  /** The last write scheduled, settled either way: the next one starts after it. */
  private tail: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  async load(groupId: string): Promise<number | undefined> {
    return (await this.read()).get(groupId);
  }

  async save(groupId: string, sequence: number): Promise<void> {
    if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError(`not a Cursor: ${sequence}`);
    (await this.read()).set(groupId, sequence);
    if (this.queued === undefined) {
      const write = this.tail.then(() => {
        this.queued = undefined;
        return this.write();
      });
      this.queued = write;
      this.tail = write.catch(() => undefined);
    }
    return this.queued;
  }

  private read(): Promise<Map<string, number>> {
    this.cursors ??= readFile(this.path, 'utf8').then(
      (text) => {
        const parsed = JSON.parse(text) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${this.path} is not a Cursor file`);
        return new Map(Object.entries(parsed).filter((entry): entry is [string, number] => Number.isSafeInteger(entry[1])));
      },
      (error: unknown) => {
        if ((error as { code?: string }).code === 'ENOENT') return new Map<string, number>();
        throw error;
      },
    );
    return this.cursors;
  }

  private async write(): Promise<void> {
    const cursors = await this.read();
    const text = `${JSON.stringify(Object.fromEntries([...cursors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), null, 2)}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
