/**
 * SMS through the webhook as a provider sees it (a real HTTP receiver on loopback), failures the caller must see,
 * and the dev outbox when no webhook is configured.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, openTestBackends, type TestBackends } from '../../testing/backends.js';
import { OutboxSmsSender, SmsSendError, WebhookSmsSender } from './sms-sender.js';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('WebhookSmsSender', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  /** How the receiver answers the next requests. */
  let answer: { status: number; location?: string; hang?: boolean } = { status: 200 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        if (answer.hang) return;
        res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
        res.end('{"id":"msg-1"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms/send`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
    answer = { status: 200 };
  });

  it('POSTs {to, text} as JSON with the bearer token', async () => {
    const sender = new WebhookSmsSender({ url, token: 'sms-secret-42' });
    await sender.send({ to: '+44 7700 900123', text: 'Your Acme code is 482913. It expires in 10 minutes.' });

    expect(received).toHaveLength(1);
    const [request] = received as [Received];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/sms/send');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer sms-secret-42');
    expect(JSON.parse(request.body)).toEqual({
      to: '+44 7700 900123',
      text: 'Your Acme code is 482913. It expires in 10 minutes.',
    });
  });

  it('sends no Authorization header without a token', async () => {
    await new WebhookSmsSender({ url }).send({ to: '+15555550100', text: 'Código: 123456' });
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(JSON.parse(received[0]!.body)).toEqual({ to: '+15555550100', text: 'Código: 123456' });
  });

  it.each([500, 400, 401, 429])('a %i from the provider is an error', async (status) => {
    answer = { status };
    const sending = new WebhookSmsSender({ url, token: 't' }).send({ to: '+15555550100', text: 'x' });
    await expect(sending).rejects.toBeInstanceOf(SmsSendError);
    await expect(sending).rejects.toMatchObject({ status, message: `SMS webhook answered ${status}` });
  });

  it('does not follow a redirect (the bearer token would go with it)', async () => {
    answer = { status: 307, location: `${url}/elsewhere` };
    await expect(
      new WebhookSmsSender({ url, token: 't' }).send({ to: '+15555550100', text: 'x' }),
    ).rejects.toThrow(SmsSendError);
    expect(received).toHaveLength(1);
  });

  it('gives up after its timeout when the provider does not answer', async () => {
    answer = { status: 200, hang: true };
    const started = Date.now();
    await expect(
      new WebhookSmsSender({ url, timeoutMs: 200 }).send({ to: '+15555550100', text: 'x' }),
    ).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports an unreachable provider', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      new WebhookSmsSender({ url: `http://127.0.0.1:${port}/` }).send({ to: '+15555550100', text: 'x' }),
    ).rejects.toThrow(/SMS webhook unreachable/);
  });

  it.each([
    [{ to: 'not a number', text: 'x' }, /must be a phone number/],
    [{ to: '', text: 'x' }, /must be a phone number/],
    [{ to: '+15555550100', text: '' }, /1 to 1600 characters/],
    [{ to: '+15555550100', text: 'x'.repeat(1601) }, /1 to 1600 characters/],
  ])('refuses %j without calling the provider', async (message, error) => {
    await expect(new WebhookSmsSender({ url }).send(message)).rejects.toThrow(error);
    expect(received).toHaveLength(0);
  });

  it('refuses a webhook URL that is not http(s)', () => {
    expect(() => new WebhookSmsSender({ url: 'ftp://example.test/' })).toThrow(/http:\/\/ or https:\/\//);
  });
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(
    `OutboxSmsSender on ${backend.name}${backend.skip ? ` — skipped: ${backend.skip}` : ''}`,
    () => {
      let backends: TestBackends;
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
      beforeEach(async () => {
        backends = await openTestBackends({ sql: backend.name === 'sqlite' ? 'sqlite' : 'postgres' });
        lines.length = 0;
      });
      afterEach(async () => {
        await backends.close();
      });

      it('keeps the SMS in the outbox (no subject, no HTML) and logs recipient and text', async () => {
        await new OutboxSmsSender(backends.store.outbox, logger).send({
          to: '+447700900123',
          text: 'Code 123456',
        });
        const entries = await backends.store.outbox.list();
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          channel: 'sms',
          to: '+447700900123',
          subject: null,
          text: 'Code 123456',
          html: null,
        });
        expect(lines).toEqual([
          expect.objectContaining({
            level: 30,
            outboxId: entries[0]!.id,
            to: '+447700900123',
            text: 'Code 123456',
          }),
        ]);
      });

      it('refuses a bad number before writing anything', async () => {
        await expect(
          new OutboxSmsSender(backends.store.outbox, logger).send({ to: 'abc', text: 'Code' }),
        ).rejects.toThrow(TypeError);
        expect(await backends.store.outbox.list()).toEqual([]);
        expect(lines).toEqual([]);
      });
    },
  );
}
