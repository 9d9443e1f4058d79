import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemStatusSchema, type SystemStatus } from 'shared-contracts';
import { SmtpMailer } from '../infra/mail/mailer.js';
import { startSmtpListener, type SmtpListener } from '../testing/smtp-listener.js';
import { RedisSessionStore } from '../infra/sessions/redis-session.store.js';
import { WebhookSmsSender } from '../infra/sms/sms-sender.js';
import { storeReleases } from '../testing/releases.js';
import { browser, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs before its greeting. */
async function silentServer(): Promise<{ port: number; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

function dependency(status: SystemStatus, name: string) {
  return status.dependencies.find((d) => d.name === name)?.state;
}

async function systemStatus(gw: TestGateway, timeoutMs = 10_000): Promise<SystemStatus> {
  const res = await request(gw.app)
    .get('/api/Account/SystemStatus')
    .timeout(timeoutMs)
    .expect(200)
    .expect('Cache-Control', 'no-store');
  return systemStatusSchema.parse(res.body);
}

describe('SystemStatus', () => {
  let smtp: SmtpListener;
  const gateways: TestGateway[] = [];
  const start = async (...args: Parameters<typeof startTestGateway>) => {
    const gw = await startTestGateway(...args);
    gateways.push(gw);
    return gw;
  };
  beforeAll(async () => {
    smtp = await startSmtpListener();
  });
  afterAll(() => smtp.close());
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gw) => gw.close()));
  });

  it('is ok with every dependency up, names no host or secret, and lists every remote with its versions', async () => {
    const gw = await start({
      overrides: {
        mailer: new SmtpMailer(
          `${smtp.url.replace('smtp://', 'smtp://mailuser:s3cret-pass@')}`,
          'id@example.test',
        ),
      },
    });
    await storeReleases(
      gw.store,
      gw.releases,
      'mfe-login',
      { active: '1.0.0', previous: [], canary: { version: '1.1.0', percent: 20 } },
      ['1.0.0', '1.1.0'],
    );

    const status = await systemStatus(gw);
    expect(status.status).toBe('ok');
    expect(dependency(status, 'database')).toBe('ok');
    expect(dependency(status, 'sessionStore')).toBe('ok');
    expect(dependency(status, 'mail')).toBe('ok');
    expect(dependency(status, 'sms')).toBe('standIn');
    expect(status.gateway.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(status.remotes.map((r) => r.id)).toEqual([
      'mfe-login',
      'mfe-mfa',
      'mfe-recovery',
      'mfe-devices',
      'mfe-tenant',
      'mfe-admin',
    ]);
    expect(status.remotes[0]).toMatchObject({ version: '1.0.0', canary: { version: '1.1.0', percent: 20 } });
    const text = JSON.stringify(status);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|smtp|mailuser|s3cret|example\.test/i);
  });

  it('answers during a pending sign-in, which goes on afterwards', async () => {
    const gw = await start();
    const user = await gw.addUser();
    await gw.store.database.db
      .insertInto('second_factors')
      .values({
        user_id: user.id,
        totp_secret_enc: null,
        totp_last_step: null,
        enabled: 1,
        preferred_method: 'pin',
        updated_at: 0,
      })
      .execute();
    const b = await browser(gw.app);
    expect((await b.signIn(user.username)).body.redirect).toMatch(/^\/account\/login\/twofactor\?/);
    const status = await b.post('/api/Account/SystemStatus', {}).expect(200);
    expect(systemStatusSchema.parse(status.body).status).toBe('ok');
    expect((await b.agent.get('/api/Account/User').expect(200)).body.signInStep).toBe(
      '/account/login/twofactor',
    );
  });

  it('shows degraded while the SMTP port is unreachable, without the port or the error text', async () => {
    const port = await closedPort();
    const gw = await start({
      overrides: {
        mailer: new SmtpMailer(`smtp://127.0.0.1:${port}`, 'id@example.test'),
        systemStatus: { probeTimeoutMs: 1000 },
      },
    });
    const status = await systemStatus(gw);
    expect(status.status).toBe('degraded');
    expect(dependency(status, 'mail')).toBe('down');
    expect(dependency(status, 'database')).toBe('ok');
    expect(JSON.stringify(status)).not.toMatch(new RegExp(`${port}|ECONNREFUSED|127\\.0\\.0\\.1`));
    // Still ready: a replica without mail still signs people in.
    await request(gw.app).get('/readyz').expect(200);
  });

  it('answers within its probe timeout when the SMTP server hangs before greeting', async () => {
    const { port, server } = await silentServer();
    try {
      // The mailer itself would wait 15 s for the greeting; the status answers long before that.
      const gw = await start({
        overrides: {
          mailer: new SmtpMailer(`smtp://127.0.0.1:${port}`, 'id@example.test'),
          systemStatus: { probeTimeoutMs: 300 },
        },
      });
      const status = await systemStatus(gw, 5000);
      expect(status.status).toBe('degraded');
      expect(dependency(status, 'mail')).toBe('down');
    } finally {
      server.close();
    }
  });

  it('shows degraded while the Redis session store is unreachable, and /readyz refuses', async () => {
    const port = await closedPort();
    const redis = new Redis(`redis://127.0.0.1:${port}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    redis.on('error', () => undefined);
    try {
      const gw = await start({
        overrides: { sessionStore: new RedisSessionStore(redis), systemStatus: { probeTimeoutMs: 1000 } },
      });
      const status = await systemStatus(gw);
      expect(status.status).toBe('degraded');
      expect(dependency(status, 'sessionStore')).toBe('down');
      expect((await request(gw.app).get('/readyz')).status).toBe(503);
    } finally {
      redis.disconnect();
    }
  });

  it('shows the SMS provider down when its webhook port is closed, ok when it listens', async () => {
    const port = await closedPort();
    const gw = await start({
      overrides: { sms: new WebhookSmsSender({ url: `http://127.0.0.1:${port}/sms` }) },
    });
    expect(dependency(await systemStatus(gw), 'sms')).toBe('down');
    const { port: open, server } = await silentServer();
    try {
      const up = await start({
        overrides: { sms: new WebhookSmsSender({ url: `http://127.0.0.1:${open}/sms` }) },
      });
      expect(dependency(await systemStatus(up), 'sms')).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('is down when the database does not answer', async () => {
    const gw = await start();
    await gw.store.database.close();
    const status = await systemStatus(gw);
    expect(status.status).toBe('down');
    expect(dependency(status, 'database')).toBe('down');
  });
});
