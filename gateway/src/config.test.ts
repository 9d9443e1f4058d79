import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the documented defaults and persists generated keys (mode 0600)', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.secure).toBe(false);
    expect(config.seedDemoData).toBe(true);
    expect(config.authorizationsPerMinute).toBe(120);
    expect(config.secretKey).toHaveLength(32);
    expect(statSync(path.join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).secretKey.equals(config.secretKey)).toBe(true);
    expect(readFileSync(path.join(dir, 'data-encryption-key'), 'utf8').trim()).toHaveLength(64);
  });

  it.each([
    ['http://localhost:8080', undefined, true],
    ['http://127.0.0.1:9000', undefined, true],
    ['http://[::1]:8080', undefined, true],
    ['https://id.example.com', undefined, false],
    ['https://localhost.example.com', undefined, false],
    ['https://id.example.com', 'true', true],
    ['http://localhost:8080', 'false', false],
  ])(
    'secure by default: PUBLIC_URL %s with SEED_DEMO_DATA=%s seeds demo data: %s (issue 39)',
    (url, seed, want) => {
      const env: Record<string, string> = { DATA_DIR: dataDir(), PUBLIC_URL: url };
      if (seed !== undefined) env.SEED_DEMO_DATA = seed;
      expect(loadConfig(env).seedDemoData).toBe(want);
    },
  );

  it.each<[Record<string, string>, string | undefined, boolean]>([
    [{ NODE_ENV: 'production' }, undefined, false],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:8080' }, undefined, false],
    [{ DATABASE_URL: 'postgres://db.internal/identity' }, undefined, false],
    [{ REDIS_URL: 'redis://cache.internal:6379/0' }, undefined, false],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://db.internal/identity' }, 'true', true],
    [{ NODE_ENV: 'production' }, 'yes', true],
    [{ NODE_ENV: 'development' }, undefined, true],
    [{ NODE_ENV: 'test' }, undefined, true],
  ])(
    'a deployment seeds demo data only when asked: %o with SEED_DEMO_DATA=%s seeds: %s (issue 48)',
    (given, seed, want) => {
      const env: Record<string, string> = { DATA_DIR: dataDir(), ...given };
      // Sharing a database or Redis needs the keys in the environment (checked before).
      if (given.DATABASE_URL !== undefined || given.REDIS_URL !== undefined) {
        env.SECRET_KEY = 'a'.repeat(64);
        env.DATA_ENCRYPTION_KEY = 'b'.repeat(64);
      }
      if (seed !== undefined) env.SEED_DEMO_DATA = seed;
      expect(loadConfig(env).seedDemoData).toBe(want);
    },
  );

  it('a bad SEED_DEMO_DATA is one config error line naming it, also on a production start (issue 48)', () => {
    try {
      loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', SEED_DEMO_DATA: 'please' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual(['SEED_DEMO_DATA: must be true or false']);
    }
  });

  it('https PUBLIC_URL makes cookies secure', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://id.example/' })).toMatchObject({
      publicUrl: 'https://id.example',
      secure: true,
    });
  });

  it('reports one clear line per bad variable', () => {
    try {
      loadConfig({
        DATA_DIR: dataDir(),
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SEED_DEMO_DATA: 'maybe',
        SECRET_KEY: 'short',
        LOG_LEVEL: 'loud',
        AUTHORIZATIONS_PER_MINUTE: '-1',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(6);
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
        'AUTHORIZATIONS_PER_MINUTE',
        'DATABASE_URL',
        'LOG_LEVEL',
        'PORT',
        'SECRET_KEY',
        'SEED_DEMO_DATA',
      ]);
    }
  });

  it('RECENT_SIGN_IN_SECONDS sets the recent-sign-in window (S21), ten minutes by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).recentSignInMs).toBe(600_000);
    expect(loadConfig({ DATA_DIR: dataDir(), RECENT_SIGN_IN_SECONDS: '5' }).recentSignInMs).toBe(5_000);
    expect(loadConfig({ DATA_DIR: dataDir(), RECENT_SIGN_IN_SECONDS: '3600' }).recentSignInMs).toBe(
      3_600_000,
    );
  });

  it.each([
    ['ten', 'must be a number of seconds'],
    ['1.5', 'must be a whole number of seconds'],
    ['0', 'must be at least 1'],
    ['-60', 'must be at least 1'],
    ['3601', 'must be at most 3600 (one hour)'],
  ])('refuses RECENT_SIGN_IN_SECONDS=%s in one line: %s', (value, message) => {
    try {
      loadConfig({ DATA_DIR: dataDir(), RECENT_SIGN_IN_SECONDS: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([`RECENT_SIGN_IN_SECONDS: ${message}`]);
    }
  });

  const KEY = 'a'.repeat(64);
  it.each([
    [
      'DATABASE_URL',
      { DATABASE_URL: 'postgres://db.example/identity' },
      'SECRET_KEY and DATA_ENCRYPTION_KEY',
    ],
    ['REDIS_URL', { REDIS_URL: 'redis://cache.example' }, 'SECRET_KEY and DATA_ENCRYPTION_KEY'],
    ['REDIS_URL', { REDIS_URL: 'redis://cache.example', SECRET_KEY: KEY }, 'DATA_ENCRYPTION_KEY'],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://db.example/i', DATA_ENCRYPTION_KEY: KEY }, 'SECRET_KEY'],
  ])('refuses %s without the keys in the environment, in one line naming them', (_name, env, named) => {
    const dir = dataDir();
    try {
      loadConfig({ DATA_DIR: dir, ...env });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(1);
      expect((error as ConfigError).problems[0]).toMatch(
        new RegExp(`^${named}: must be set in the environment`),
      );
    }
    // Nothing generated into DATA_DIR for a replica that refused to start.
    expect(() => statSync(path.join(dir, 'secret-key'))).toThrow();
  });

  it('accepts DATABASE_URL and REDIS_URL with both keys; balancer timeouts and the drain have defaults', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://db.example/identity',
      REDIS_URL: 'redis://cache.example',
      SECRET_KEY: KEY,
      DATA_ENCRYPTION_KEY: 'b'.repeat(64),
    });
    expect(config.secretKey.equals(Buffer.from(KEY, 'hex'))).toBe(true);
    expect(config).toMatchObject({ keepAliveTimeoutMs: 75_000, headersTimeoutMs: 76_000, drainMs: 10_000 });
    expect(
      loadConfig({ DATA_DIR: dataDir(), KEEP_ALIVE_TIMEOUT_SECONDS: '120', DRAIN_SECONDS: '0' }),
    ).toMatchObject({ keepAliveTimeoutMs: 120_000, headersTimeoutMs: 121_000, drainMs: 0 });
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), KEEP_ALIVE_TIMEOUT_SECONDS: '75', HEADERS_TIMEOUT_SECONDS: '60' }),
    ).toThrow(/HEADERS_TIMEOUT_SECONDS/);
  });
});
