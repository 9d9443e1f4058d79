import type { SessionRecord, SessionStore } from './session-store.js';

/** In-process session store (tests, single process without persistence). */
export class MemorySessionStore implements SessionStore {
  private readonly entries = new Map<string, { record: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): Promise<SessionRecord | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return Promise.resolve(undefined);
    }
    // Stored as JSON so callers never share a mutable object with the store, as with the real stores.
    return Promise.resolve(JSON.parse(entry.record) as SessionRecord);
  }

  set(key: string, record: SessionRecord, expiresAt: number): Promise<void> {
    this.entries.set(key, { record: JSON.stringify(record), expiresAt });
    return Promise.resolve();
  }

  destroy(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    this.entries.clear();
    return Promise.resolve();
  }
}
