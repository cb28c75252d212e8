/**
 * This process's copy of the Agent Registry: the validated key bindings used at stage 4 and
 * the Agent facts deciders consult. The database's `registry_revision` says whether it is
 * current; write transactions compare it and reload before deciding on stale evidence.
 */

import type { Queryable } from '../store/pool.js';
import { readRegistryRevision } from '../store/sql/registry.js';
import { catchUpRegistry } from './registryCatchUp.js';
import { loadRegistrySnapshot, type RegistrySnapshot } from './registrySnapshot.js';

/** Told when the snapshot changes, with the previous one (to send deltas to workers). */
export type RegistryListener = (previous: RegistrySnapshot, next: RegistrySnapshot) => void;

/** Holds the current snapshot and reloads it when the database has moved on. */
export class RegistryCache {
  private readonly listeners: RegistryListener[] = [];
  private refreshing: Promise<RegistrySnapshot> | undefined;
  private following: Promise<RegistrySnapshot> | undefined;

  constructor(
    private snapshot: RegistrySnapshot,
    private readonly organizationId: string,
  ) {}

  get current(): RegistrySnapshot {
    return this.snapshot;
  }

  onChange(listener: RegistryListener): void {
    this.listeners.push(listener);
  }

  private replace(next: RegistrySnapshot): void {
    const previous = this.snapshot;
    this.snapshot = next;
    for (const listener of this.listeners) listener(previous, next);
  }

  /** Installs a snapshot this process produced itself (after its own commit). */
  install(snapshot: RegistrySnapshot): void {
    if (snapshot.revision >= this.snapshot.revision) this.replace(snapshot);
  }

  /** Moves to `revision` (read in the caller's transaction) when ours differs: by the rows missed (`registryCatchUp.ts`), else a full reload. */
  async ensure(db: Queryable, revision: number): Promise<RegistrySnapshot> {
    if (revision === this.snapshot.revision) return this.snapshot;
    const from = this.snapshot;
    const next = (await catchUpRegistry(db, from, revision)) ?? (await loadRegistrySnapshot(db, this.organizationId));
    // Another caller may have moved it on meanwhile: install this one only over an older copy,
    // and answer the caller with the revision it asked for.
    if (this.snapshot === from || next.revision > this.snapshot.revision) this.replace(next);
    return next;
  }

  /**
   * Catches up with the database outside any write: one small read of the revision, reloading
   * when another node has moved it (a card registered there, a key revoked there). A caller
   * always sees a read that started after it asked; concurrent callers share reads.
   */
  refresh(db: Queryable): Promise<RegistrySnapshot> {
    if (this.refreshing === undefined) return this.startRefresh(db);
    this.following ??= this.refreshing.catch(() => undefined).then(() => {
      this.following = undefined;
      return this.startRefresh(db);
    });
    return this.following;
  }

  private startRefresh(db: Queryable): Promise<RegistrySnapshot> {
    const run: Promise<RegistrySnapshot> = this.readAndEnsure(db).finally(() => {
      if (this.refreshing === run) this.refreshing = undefined;
    });
    this.refreshing = run;
    return run;
  }

  private async readAndEnsure(db: Queryable): Promise<RegistrySnapshot> {
    return this.ensure(db, await readRegistryRevision(db, this.organizationId));
  }
}
