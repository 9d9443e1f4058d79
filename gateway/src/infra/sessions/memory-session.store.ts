import type { SessionRecord, SessionStore, StoredSession } from './session-store.js';

/** In-process session store (tests, single process without persistence). */
export class MemorySessionStore implements SessionStore {
  // Records are kept as JSON so callers never share a mutable object with the store, as with the real stores;
  // `undefined` is an ended marker.
  private readonly entries = new Map<string, { record: string | undefined; storeUntil: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private entry(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.storeUntil <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  get(key: string): Promise<StoredSession | undefined> {
    const entry = this.entry(key);
    if (!entry) return Promise.resolve(undefined);
    return Promise.resolve(
      entry.record === undefined
        ? { kind: 'ended' }
        : { kind: 'live', record: JSON.parse(entry.record) as SessionRecord },
    );
  }

  create(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    if (this.entry(key)) return Promise.resolve(false);
    this.entries.set(key, { record: JSON.stringify(record), storeUntil });
    return Promise.resolve(true);
  }

  update(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    if (this.entry(key)?.record === undefined) return Promise.resolve(false);
    this.entries.set(key, { record: JSON.stringify(record), storeUntil });
    return Promise.resolve(true);
  }

  destroy(key: string, endedUntil?: number): Promise<void> {
    if (endedUntil === undefined) this.entries.delete(key);
    else this.entries.set(key, { record: undefined, storeUntil: endedUntil });
    return Promise.resolve();
  }

  async replace(
    oldKey: string,
    endedUntil: number,
    newKey: string,
    record: SessionRecord,
    storeUntil: number,
  ): Promise<boolean> {
    await this.destroy(oldKey, endedUntil);
    return this.create(newKey, record, storeUntil);
  }

  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    this.entries.clear();
    return Promise.resolve();
  }
}
