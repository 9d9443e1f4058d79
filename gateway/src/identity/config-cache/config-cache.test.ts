import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../infra/clock.js';
import { openTestBackends, type TestBackends } from '../../testing/backends.js';
import { PartnerService } from '../partners/partner.service.js';
import { createReturnUrls } from '../applications/return-urls.service.js';
import { cachedValue, CONFIG_CACHE_TTL_MS } from './ttl-cache.js';

describe('in-process cache of partners and registered return URLs', () => {
  let backends: TestBackends;
  beforeAll(async () => {
    backends = await openTestBackends({ sql: 'sqlite' });
    await backends.store.partners.create({
      id: 'acme',
      name: 'Acme Payroll',
      domains: ['acme.example'],
      isDefault: true,
    });
    await backends.store.clients.create({
      clientId: 'portal',
      name: 'Portal',
      redirectUris: ['https://portal.example/callback'],
    });
  });
  afterAll(async () => {
    await backends.close();
  });

  it('GetPartnerMetaData: the second call is answered without a store read; another process’s change shows after the TTL', async () => {
    const { partners } = backends.store;
    const clock = new ManualClock();
    const service = new PartnerService(partners, { now: () => clock.now() });
    const reads = vi.spyOn(partners, 'list');
    try {
      expect((await service.metadataForHost('acme.example')).partnerName).toBe('Acme Payroll');
      expect((await service.metadataForHost('other.example')).partnerName).toBe('Acme Payroll');
      expect(await service.acceptedLanguage('acme.example', 'EN-gb')).toBe('en-GB');
      expect(reads).toHaveBeenCalledTimes(1);

      // A change written by another process (the admin CLI, another replica): straight to the database ...
      await backends.store.database.db
        .updateTable('partners')
        .set({ name: 'Acme Renamed' })
        .where('id', '=', 'acme')
        .execute();
      clock.advance(CONFIG_CACHE_TTL_MS - 1);
      expect((await service.metadataForHost('acme.example')).partnerName).toBe('Acme Payroll');
      // ... is seen once the TTL has passed.
      clock.advance(1);
      expect((await service.metadataForHost('acme.example')).partnerName).toBe('Acme Renamed');
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('a write through this process is seen at once', async () => {
    const { partners } = backends.store;
    const clock = new ManualClock();
    const service = new PartnerService(partners, { now: () => clock.now() });
    await service.metadataForHost('acme.example');
    await partners.update('acme', { defaultLanguage: 'de' });
    expect((await service.metadataForHost('acme.example')).defaultLanguage).toBe('de');
  });

  it('concurrent first calls share one store read', async () => {
    const { partners } = backends.store;
    const service = new PartnerService(partners);
    const reads = vi.spyOn(partners, 'list');
    try {
      await Promise.all(Array.from({ length: 10 }, () => service.forHost('acme.example')));
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('returnUrl check (LoginView, Login): answered from the cache; a newly registered client shows after the TTL', async () => {
    const { clients } = backends.store;
    const clock = new ManualClock();
    const returnUrls = createReturnUrls(backends.store, { now: () => clock.now() });
    const reads = vi.spyOn(clients, 'registeredReturnUrls');
    try {
      expect(await returnUrls.safe('https://portal.example/callback')).toBe(
        'https://portal.example/callback',
      );
      expect(await returnUrls.safe('https://new.example/cb')).toBe('/');
      expect(reads).toHaveBeenCalledTimes(1);
      // Registered by another process (the admin CLI): straight to the database.
      await backends.store.database.db
        .insertInto('oidc_clients')
        .values({
          client_id: 'new',
          client_secret_enc: null,
          name: 'New',
          redirect_uris: JSON.stringify(['https://new.example/cb']),
          post_logout_redirect_uris: '[]',
          backchannel_logout_uri: null,
          first_party: 1,
          created_at: 0,
        })
        .execute();
      expect(await returnUrls.safe('https://new.example/cb')).toBe('/');
      clock.advance(CONFIG_CACHE_TTL_MS);
      expect(await returnUrls.safe('https://new.example/cb')).toBe('https://new.example/cb');
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('a client registered through this process is accepted at once', async () => {
    const { store } = backends;
    const returnUrls = createReturnUrls(store, { now: () => 0 });
    expect(await returnUrls.safe('https://third.example/cb')).toBe('/');
    await store.clients.create({
      clientId: 'third',
      name: 'Third',
      redirectUris: ['https://third.example/cb'],
    });
    expect(await returnUrls.safe('https://third.example/cb')).toBe('https://third.example/cb');
  });
});

describe('cachedValue.peek: what get() would answer now, without a promise', () => {
  it('says nothing until a load has settled, then the value until the TTL or an invalidation', async () => {
    let at = 0;
    let loads = 0;
    const cached = cachedValue(() => Promise.resolve(`v${(loads += 1)}`), { now: () => at, ttlMs: 100 });
    expect(cached.peek()).toBeUndefined();
    const loading = cached.get();
    // Still loading: the caller must wait for get(), peek has nothing yet.
    expect(cached.peek()).toBeUndefined();
    expect(await loading).toBe('v1');
    expect(cached.peek()).toEqual({ value: 'v1' });
    at = 99;
    expect(cached.peek()).toEqual({ value: 'v1' });
    // Expired: peek says nothing (it never answers a stale value) and get() loads again.
    at = 100;
    expect(cached.peek()).toBeUndefined();
    expect(await cached.get()).toBe('v2');
    expect(cached.peek()).toEqual({ value: 'v2' });
    cached.invalidate();
    expect(cached.peek()).toBeUndefined();
    expect(loads).toBe(2);
  });

  it('a failed load leaves nothing to peek at', async () => {
    const cached = cachedValue<string>(() => Promise.reject(new Error('store down')), { now: () => 0 });
    await expect(cached.get()).rejects.toThrow('store down');
    expect(cached.peek()).toBeUndefined();
  });

  it('PartnerService.peekForHost answers the partner get() would, and nothing before the list is loaded', async () => {
    const partners = {
      list: () =>
        Promise.resolve([
          { id: 'acme', domains: ['acme.example'], isDefault: true },
          { id: 'other', domains: ['other.example'], isDefault: false },
        ]),
      onChange: () => {},
    } as unknown as ConstructorParameters<typeof PartnerService>[0];
    const service = new PartnerService(partners);
    expect(service.peekForHost('other.example')).toBeUndefined();
    await service.forHost('acme.example');
    expect(service.peekForHost('other.example')?.partner?.id).toBe('other');
    expect(service.peekForHost('unknown.example')?.partner?.id).toBe('acme');
  });
});
