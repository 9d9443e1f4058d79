import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore, StoredSession } from './session-store.js';

// The value of an ended marker: never valid JSON of a record.
const ENDED = 'ended';

// Replaces a live record only, atomically: a key that is gone (expired, deleted) or holds the ended marker stays
// as it is, so a request that loaded the session before it ended cannot write it back.
const UPDATE_LIVE = `
local current = redis.call('GET', KEYS[1])
if (not current) or current == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// Ends the old key with the ended marker and stores the new record unless its key is taken, in one round trip
// (a script runs whole): 1 when the new record was written.
const REPLACE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4], 'NX') then return 1 end
return 0`;

/** Session store in Redis (REDIS_URL), shared by every gateway replica. Keys expire with the session. */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
    /** Every key of this store starts with it. */
    readonly prefix = 'idp:session:',
  ) {}

  private ttl(until: number): number {
    return Math.max(1, Math.ceil(until - this.now()));
  }

  async get(key: string): Promise<StoredSession | undefined> {
    const text = await this.redis.get(this.prefix + key);
    if (!text) return undefined;
    return text === ENDED ? { kind: 'ended' } : { kind: 'live', record: JSON.parse(text) as SessionRecord };
  }

  async create(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    const ok = await this.redis.set(
      this.prefix + key,
      JSON.stringify(record),
      'PX',
      this.ttl(storeUntil),
      'NX',
    );
    return ok === 'OK';
  }

  async update(key: string, record: SessionRecord, storeUntil: number): Promise<boolean> {
    const written = await this.redis.eval(
      UPDATE_LIVE,
      1,
      this.prefix + key,
      JSON.stringify(record),
      String(this.ttl(storeUntil)),
      ENDED,
    );
    return written === 1;
  }

  async destroy(key: string, endedUntil?: number): Promise<void> {
    if (endedUntil === undefined) await this.redis.del(this.prefix + key);
    else await this.redis.set(this.prefix + key, ENDED, 'PX', this.ttl(endedUntil));
  }

  async replace(
    oldKey: string,
    endedUntil: number,
    newKey: string,
    record: SessionRecord,
    storeUntil: number,
  ): Promise<boolean> {
    const written = await this.redis.eval(
      REPLACE,
      2,
      this.prefix + oldKey,
      this.prefix + newKey,
      ENDED,
      String(this.ttl(endedUntil)),
      JSON.stringify(record),
      String(this.ttl(storeUntil)),
    );
    return written === 1;
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    // The Redis connection is shared and closed by its owner.
    return Promise.resolve();
  }
}
