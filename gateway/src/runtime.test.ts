/**
 * The runtime opens the outside parts from the environment: SMTP or the dev outbox for mail, the webhook or the
 * outbox for SMS, the SQL table or Redis for short-lived flow state; and the outbox entries are logged for the demo.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { hashPassword } from './identity/passwords/passwords.service.js';
import { onPostgres } from './testing/backends.js';
import { RedisKeyValueStore } from './infra/kv/redis-key-value.store.js';
import { SqlKeyValueStore } from './infra/kv/sql-key-value.store.js';
import { OutboxMailer, SmtpMailer } from './infra/mail/mailer.js';
import { startSmtpListener } from './testing/smtp-listener.js';
import { OutboxSmsSender, WebhookSmsSender } from './infra/sms/sms-sender.js';
import { openRuntime, type Runtime } from './runtime.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { lines, logger };
}

async function open(env: Record<string, string>, logger = captureLogger().logger): Promise<Runtime> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'runtime-test-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'false',
    PUBLIC_URL: 'https://id.example.test',
    ...env,
  });
  const runtime = await openRuntime(config, logger);
  cleanups.push(() => runtime.close());
  return runtime;
}

describe('demo data on a deployment (issue 39)', () => {
  it('a deployed start with demo users that take the published password warns once, naming them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'runtime-test-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // Demo data seeded as a developer would (explicitly), then the same store started as a deployment.
    const local = await openRuntime(
      loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:8080' }),
      captureLogger().logger,
    );
    expect(await local.store.users.findByLogin('employee')).toBeDefined();
    await local.store.users.update((await local.store.users.findByLogin('manager'))!.id, { disabled: true });
    await local.close();

    const { lines, logger } = captureLogger();
    const deployed = await openRuntime(
      loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://id.example.test' }),
      logger,
    );
    cleanups.push(() => deployed.close());
    const warnings = lines.filter((l) => l.level === 40 && String(l.msg).startsWith('SECURITY: demo users'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.demoUsers).toEqual(expect.arrayContaining(['employee', 'hradmin']));
    expect(warnings[0]!.demoUsers).not.toContain('manager');

    // A deployment on an empty store seeds nothing by default.
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'runtime-test-'));
    cleanups.push(() => rmSync(emptyDir, { recursive: true, force: true }));
    const fresh = await openRuntime(
      loadConfig({ DATA_DIR: emptyDir, PUBLIC_URL: 'https://id.example.test' }),
      captureLogger().logger,
    );
    cleanups.push(() => fresh.close());
    expect(await fresh.store.users.count()).toBe(0);
  });
});

describe('demo data only where it is safe (issue 48)', () => {
  const demoWarnings = (lines: Record<string, unknown>[]) =>
    lines.filter((l) => l.level === 40 && String(l.msg).startsWith('SECURITY: demo users'));

  async function start(env: Record<string, string>, dataDir = tempDir()) {
    const { lines, logger } = captureLogger();
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, ...env }), logger);
    return { runtime, lines, dataDir };
  }

  function tempDir(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'runtime-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it('a production start (NODE_ENV=production, PUBLIC_URL unset so on loopback) without SEED_DEMO_DATA seeds nothing and warns of nothing', async () => {
    const { runtime, lines } = await start({ NODE_ENV: 'production' });
    cleanups.push(() => runtime.close());
    expect(await runtime.store.users.count()).toBe(0);
    expect(await runtime.store.clients.findById('payroll-portal')).toBeUndefined();
    expect(lines.some((l) => l.msg === 'demo data seeded')).toBe(false);
    expect(demoWarnings(lines)).toEqual([]);
  });

  it('a production start with SEED_DEMO_DATA=true seeds the demo and warns once, naming the open demo users', async () => {
    const { runtime, lines } = await start({ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' });
    cleanups.push(() => runtime.close());
    expect(await runtime.store.users.findByLogin('hradmin')).toBeDefined();
    expect(lines.filter((l) => l.msg === 'demo data seeded')).toHaveLength(1);
    const warnings = demoWarnings(lines);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.demoUsers).toEqual(expect.arrayContaining(['employee', 'hradmin']));
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    `a start on PostgreSQL (DATABASE_URL, PUBLIC_URL unset so on loopback) without SEED_DEMO_DATA seeds nothing${process.env.TEST_DATABASE_URL ? '' : ' — skipped: TEST_DATABASE_URL is not set'}`,
    async () => {
      // A schema of its own, through the URL's options, as an operator's DATABASE_URL may carry them.
      const schema = `runtime_${randomBytes(6).toString('hex')}`;
      await onPostgres(`create schema ${schema}`);
      cleanups.push(() => onPostgres(`drop schema ${schema} cascade`));
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const { runtime, lines } = await start({
        DATABASE_URL: url.href,
        SECRET_KEY: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      });
      cleanups.push(() => runtime.close());
      expect(runtime.store.database.dialect).toBe('postgres');
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        runtime.store.database.db,
      );
      expect(rows[0]?.schema).toBe(schema);
      expect(await runtime.store.users.count()).toBe(0);
      expect(demoWarnings(lines)).toEqual([]);
    },
  );

  it.each(['http://localhost:8080', 'http://127.0.0.1:8443', 'https://id.example.test'])(
    'a start on PUBLIC_URL %s where an account still has the demo password warns once; once it is changed, not at all',
    async (publicUrl) => {
      const dataDir = tempDir();
      const seeded = await start({ SEED_DEMO_DATA: 'true', PUBLIC_URL: 'http://localhost:8080' }, dataDir);
      await seeded.runtime.close();

      const again = await start({ PUBLIC_URL: publicUrl, SEED_DEMO_DATA: 'false' }, dataDir);
      const warnings = demoWarnings(again.lines);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.demoUsers).toContain('employee');
      // Every demo user gets a password of its own: the next start has nothing to say.
      for (const name of warnings[0]!.demoUsers as string[]) {
        const user = (await again.runtime.store.users.findByLogin(name))!;
        await again.runtime.store.users.update(user.id, {
          passwordHash: await hashPassword(`Own ${name} pass 7`),
        });
      }
      await again.runtime.close();

      const third = await start({ PUBLIC_URL: publicUrl, SEED_DEMO_DATA: 'false' }, dataDir);
      cleanups.push(() => third.runtime.close());
      expect(demoWarnings(third.lines)).toEqual([]);
    },
  );
});

describe('runtime outside parts', () => {
  it('without providers: mail and SMS go to the outbox and the log, flow state to the SQL table', async () => {
    const { lines, logger } = captureLogger();
    const runtime = await open({}, logger);
    expect(runtime.mailer).toBeInstanceOf(OutboxMailer);
    expect(runtime.sms).toBeInstanceOf(OutboxSmsSender);
    expect(runtime.kv).toBeInstanceOf(SqlKeyValueStore);

    await runtime.mailer.send({
      to: 'ann@example.test',
      subject: 'Reset',
      text: 'https://id.example.test/r?t=1',
    });
    await runtime.sms.send({ to: '+447700900123', text: 'Code 123456' });
    expect((await runtime.store.outbox.list()).map((e) => [e.channel, e.to])).toEqual([
      ['sms', '+447700900123'],
      ['email', 'ann@example.test'],
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          to: 'ann@example.test',
          subject: 'Reset',
          text: 'https://id.example.test/r?t=1',
        }),
        expect.objectContaining({ to: '+447700900123', text: 'Code 123456' }),
      ]),
    );

    await runtime.kv.set('flow', 'state', 60_000);
    expect(await runtime.kv.take('flow')).toBe('state');
  });

  it('with SMTP_URL and SMS_WEBHOOK_URL: real delivery, From defaulting to no-reply at the public host', async () => {
    const smtp = await startSmtpListener();
    cleanups.push(() => smtp.close());
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(`${req.headers.authorization} ${body}`);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    const runtime = await open({
      SMTP_URL: smtp.url,
      SMS_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms`,
      SMS_WEBHOOK_TOKEN: 'tok-1',
    });
    expect(runtime.mailer).toBeInstanceOf(SmtpMailer);
    expect(runtime.sms).toBeInstanceOf(WebhookSmsSender);

    await runtime.mailer.send({ to: 'ann@example.test', subject: 'Hello', text: 'Body' });
    await runtime.sms.send({ to: '+15555550100', text: 'Code 1' });
    expect(smtp.received[0]?.mail.from?.value).toEqual([{ name: '', address: 'no-reply@id.example.test' }]);
    expect(bodies).toEqual(['Bearer tok-1 {"to":"+15555550100","text":"Code 1"}']);
    expect(await runtime.store.outbox.list()).toEqual([]);
  });

  it('MAIL_FROM sets the sender', async () => {
    const smtp = await startSmtpListener();
    cleanups.push(() => smtp.close());
    const runtime = await open({ SMTP_URL: smtp.url, MAIL_FROM: 'Acme Sign-in <signin@acme.example>' });
    await runtime.mailer.send({ to: 'ann@example.test', subject: 'Hello', text: 'Body' });
    expect(smtp.received[0]?.mail.from?.value).toEqual([
      { name: 'Acme Sign-in', address: 'signin@acme.example' },
    ]);
  });

  it.skipIf(!process.env.TEST_REDIS_URL)(
    `with REDIS_URL: flow state lives in Redis${process.env.TEST_REDIS_URL ? '' : ' — skipped: TEST_REDIS_URL is not set'}`,
    async () => {
      // Replicas sharing Redis must be given their keys (config.ts refuses to generate them).
      const runtime = await open({
        REDIS_URL: process.env.TEST_REDIS_URL ?? '',
        SECRET_KEY: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      });
      expect(runtime.kv).toBeInstanceOf(RedisKeyValueStore);
      const key = `runtime-test-${randomBytes(6).toString('hex')}`;
      await runtime.kv.set(key, 'v', 60_000);
      expect(await runtime.redis!.get(`idp:kv:${key}`)).toBe('v');
      expect(await runtime.kv.take(key)).toBe('v');
    },
  );
});

describe('outside-part configuration', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'runtime-config-'));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ MAIL_FROM: 'not an address' }, /^MAIL_FROM: must be an address/],
    [{ MAIL_FROM: 'a@b.test\r\nBcc: x@y.test' }, /^MAIL_FROM:/],
    [{ SMS_WEBHOOK_URL: 'ftp://sms.example/' }, /^SMS_WEBHOOK_URL: must be a URL/],
    [
      { SMS_WEBHOOK_URL: 'https://sms.example/', SMS_WEBHOOK_TOKEN: 'has space' },
      /^SMS_WEBHOOK_TOKEN: must be/,
    ],
    [{ SMS_WEBHOOK_TOKEN: 'tok' }, /^SMS_WEBHOOK_TOKEN: set SMS_WEBHOOK_URL too/],
  ])('%j is a configuration error', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir, ...env })).toThrow(message);
  });

  it('defaults MAIL_FROM to no-reply at the public host', () => {
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://login.acme.example/' }).mailFrom).toBe(
      'no-reply@login.acme.example',
    );
    expect(loadConfig({ DATA_DIR: dataDir, MAIL_FROM: 'signin@acme.example' }).mailFrom).toBe(
      'signin@acme.example',
    );
  });
});
