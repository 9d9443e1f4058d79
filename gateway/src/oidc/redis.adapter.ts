/**
 * oidc-provider storage adapter over Redis, for the short-lived artefacts when REDIS_URL is set (ARCHITECTURE.md
 * "Storage": any number of stateless replicas). Layout, after oidc-provider's example Redis adapter:
 * - `<prefix><kind>:<id>` the payload JSON, with the artefact's TTL;
 * - `<prefix><kind>:<id>:consumed` the consumption time; created with SET NX inside one Lua script so a code or
 *   refresh token is consumed exactly once under any concurrency (S36);
 * - `<prefix>grant:<grantId>` a set of the keys issued under a grant, for revokeByGrantId;
 * - `<prefix>uid:<uid>` / `<prefix>user_code:<code>` lookups.
 */
import type { Redis } from 'ioredis';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';

// KEYS[1] payload key, KEYS[2] consumed marker, ARGV[1] now. Returns 1 consumed, 0 already consumed, -1 missing.
const CONSUME_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return -1 end
local ok
if ttl > 0 then ok = redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ttl)
else ok = redis.call('SET', KEYS[2], ARGV[1], 'NX') end
if ok then return 1 end
return 0
`;

// Models whose artefacts belong to a grant and are revoked with it.
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'ClientCredentials',
  'BackchannelAuthenticationRequest',
]);

class RedisPayloadAdapter implements Adapter {
  constructor(
    private readonly redis: Redis,
    private readonly kind: string,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}${this.kind}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const key = this.key(id);
    const multi = this.redis.multi();
    if (expiresIn) multi.set(key, JSON.stringify(payload), 'EX', expiresIn);
    else multi.set(key, JSON.stringify(payload));
    if (GRANTABLE.has(this.kind) && typeof payload.grantId === 'string') {
      const grantKey = `${this.prefix}grant:${payload.grantId}`;
      multi.sadd(grantKey, key);
      // The index lives as long as its longest member.
      if (expiresIn) multi.expire(grantKey, expiresIn, 'GT');
      multi.expire(grantKey, expiresIn ?? 14 * 24 * 3600, 'NX');
    }
    if (typeof payload.userCode === 'string') {
      if (expiresIn) multi.set(`${this.prefix}user_code:${payload.userCode}`, id, 'EX', expiresIn);
      else multi.set(`${this.prefix}user_code:${payload.userCode}`, id);
    }
    if (typeof payload.uid === 'string') {
      if (expiresIn) multi.set(`${this.prefix}uid:${payload.uid}`, id, 'EX', expiresIn);
      else multi.set(`${this.prefix}uid:${payload.uid}`, id);
    }
    await multi.exec();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const key = this.key(id);
    const [data, consumed] = await this.redis.mget(key, `${key}:consumed`);
    if (!data) return undefined;
    const payload = JSON.parse(data) as AdapterPayload;
    return consumed ? { ...payload, consumed: Number(consumed) } : payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(`${this.prefix}uid:${uid}`);
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(`${this.prefix}user_code:${userCode}`);
    return id ? this.find(id) : undefined;
  }

  async consume(id: string): Promise<void> {
    const key = this.key(id);
    const now = Math.floor(Date.now() / 1000);
    const outcome = (await this.redis.eval(CONSUME_SCRIPT, 2, key, `${key}:consumed`, String(now))) as number;
    if (outcome === 1) return;
    // Lost the race: replay. Revoke the grant the artefact belonged to (RFC 6749 §4.1.2).
    const data = await this.redis.get(key);
    if (data) {
      const { grantId } = JSON.parse(data) as AdapterPayload;
      if (typeof grantId === 'string') await this.revokeByGrantId(grantId);
    }
    throw new errors.InvalidGrant(`${this.kind} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    const key = this.key(id);
    await this.redis.del(key, `${key}:consumed`);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const grantKey = `${this.prefix}grant:${grantId}`;
    const keys = await this.redis.smembers(grantKey);
    const all = [grantKey, `${this.prefix}Grant:${grantId}`, ...keys, ...keys.map((k) => `${k}:consumed`)];
    await this.redis.del(...all);
  }
}

/** An adapter factory for oidc-provider that keeps every model in Redis under `prefix` (default `oidc:`). */
export function createRedisAdapterFactory(redis: Redis, prefix = 'oidc:'): AdapterFactory {
  return (kind: string) => new RedisPayloadAdapter(redis, kind, prefix);
}
