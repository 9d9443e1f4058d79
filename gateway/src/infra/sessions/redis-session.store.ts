import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from './session-store.js';

/** Session store in Redis (REDIS_URL), shared by every gateway replica. Keys expire with the session. */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
    private readonly prefix = 'idp:session:',
  ) {}

  async get(key: string): Promise<SessionRecord | undefined> {
    const text = await this.redis.get(this.prefix + key);
    return text ? (JSON.parse(text) as SessionRecord) : undefined;
  }

  async set(key: string, record: SessionRecord, expiresAt: number): Promise<void> {
    const ttl = Math.max(1, expiresAt - this.now());
    await this.redis.set(this.prefix + key, JSON.stringify(record), 'PX', ttl);
  }

  async destroy(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
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
