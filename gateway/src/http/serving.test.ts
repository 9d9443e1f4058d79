import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from 'shared-contracts';
import { runReleasesCommand } from '../cli/releases.js';
import { createReleaseService } from '../releases/release-service.js';
import { loadConfig } from '../config.js';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

describe('headers, shell serving, releases and ops', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      overrides: { clientErrorLimits: { perSourcePerMinute: 3, globalPerMinute: 100 } },
      config: { metricsToken: METRICS_TOKEN },
    });
  });
  afterAll(async () => {
    await gw.close();
  });
  /** A releases CLI command against the gateway's store; returns once the app serves its outcome. */
  const releases = async (args: string[], out: (line: string) => void) => {
    await runReleasesCommand(args, createReleaseService(gw.store, gw.config.shellDist), out);
    await gw.releases.refresh();
  };

  it('S33 every HTML response has CSP with a nonce and frame-ancestors, nosniff, COOP, Referrer-Policy; no HSTS over http', async () => {
    const res = await request(gw.app).get('/account/login').expect(200);
    const csp = res.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.text).toContain(`<script nonce="${nonce}">`);
    expect(res.text).not.toContain('__CSP_NONCE__');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const again = await request(gw.app).get('/account/login');
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('sends HSTS and __Host- cookies with Secure when PUBLIC_URL is https (S26)', async () => {
    const tls = await startTestGateway({ config: { publicUrl: 'https://id.example', secure: true } });
    try {
      const res = await request(tls.app).get('/api/Account/Antiforgery').expect(200);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      const session = cookies.find((c) => c.startsWith('__Host-idp.session='))!;
      expect(session).toMatch(/; Path=\//);
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; SameSite=Lax/);
      expect(session).not.toMatch(/Domain=/i);
      const csrf = cookies.find((c) => c.startsWith('__Host-idp.x-csrf-token-value='))!;
      expect(csrf).toMatch(/; Secure/);
      expect(csrf).not.toMatch(/HttpOnly/);
    } finally {
      await tls.close();
    }
  });

  it('S26 the session cookie over http: HttpOnly, SameSite, Path=/, no Domain', async () => {
    const res = await request(gw.app).get('/api/Account/Antiforgery');
    const session = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('idp.session='),
    )!;
    expect(session).toMatch(/Path=\//);
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Domain=/i);
  });

  it("a page gives a browser without a session cookie its anonymous session, which the page's first calls share", async () => {
    const sessionCookie = (res: request.Response) =>
      ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((c) =>
        c.startsWith('idp.session='),
      );
    const page = await request(gw.app).get('/account/login').expect(200);
    const issued = sessionCookie(page);
    expect(issued).toMatch(/^idp\.session=[A-Za-z0-9_-]{64}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = issued!.split(';')[0]!;
    // The page's calls carry it (Antiforgery, then LoginView and AssertionOptions sent at once): none starts a
    // session of its own, so no cookie of theirs can win over another's.
    const antiforgery = await request(gw.app)
      .get('/api/Account/Antiforgery')
      .set('Cookie', cookie)
      .expect(200);
    const csrfCookie = (antiforgery.headers['set-cookie'] as unknown as string[])
      .find((c) => c.startsWith('idp.x-csrf-token-value='))!
      .split(';')[0]!;
    const calls = await Promise.all([
      request(gw.app)
        .post('/api/Account/AssertionOptions')
        .set('Cookie', `${cookie}; ${csrfCookie}`)
        .set('x-csrf-token-value', (antiforgery.body as { token: string }).token)
        .send({})
        .expect(200),
      request(gw.app).get('/api/Account/LoginView?returnUrl=/').set('Cookie', cookie).expect(200),
    ]);
    expect(sessionCookie(antiforgery)).toBeUndefined();
    for (const call of calls) expect(sessionCookie(call)).toBeUndefined();
    // A browser that has a session cookie, live or not, gets none from a page (LoginView answers an expired one).
    expect(sessionCookie(await request(gw.app).get('/account/login').set('Cookie', cookie))).toBeUndefined();
    const dead = 'idp.session=' + 'x'.repeat(64);
    expect(sessionCookie(await request(gw.app).get('/account/login').set('Cookie', dead))).toBeUndefined();
  });

  it('echoes x-request-id and serves /healthz, /readyz and /metrics', async () => {
    const res = await request(gw.app).get('/healthz').set('x-request-id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(
      (await request(gw.app).get('/healthz').set('x-request-id', 'bad id with spaces')).headers[
        'x-request-id'
      ],
    ).not.toContain(' ');
    expect((await request(gw.app).get('/readyz').expect(200)).body).toMatchObject({
      status: 'ready',
      database: true,
      sessionStore: true,
    });
    const metrics = await request(gw.app)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    expect(metrics.text).toContain('http_requests_total{status="2xx"}');
    expect(metrics.text).toContain('# TYPE sign_ins_total counter');
  });

  it('/metrics answers only the bearer of METRICS_TOKEN, is absent without it, and open only with METRICS_PUBLIC', async () => {
    const ask = (app: typeof gw.app, authorization?: string) => {
      const req = request(app).get('/metrics');
      return authorization === undefined ? req : req.set('Authorization', authorization);
    };
    for (const wrong of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}`,
      METRICS_TOKEN,
    ]) {
      const res = await ask(gw.app, wrong);
      expect(res.status, String(wrong)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.text).not.toContain('http_requests_total');
    }
    const ok = await ask(gw.app, `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(ok.text).toContain('http_requests_total');
    expect((await ask(gw.app, `bearer ${METRICS_TOKEN}`)).status).toBe(200);

    // Without a token the endpoint does not exist, whatever is sent; METRICS_PUBLIC=true opens it on purpose.
    const closed = await startTestGateway();
    const open = await startTestGateway({ config: { metricsPublic: true } });
    try {
      for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`, 'Bearer undefined']) {
        const res = await ask(closed.app, authorization);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain('http_requests_total');
      }
      expect((await ask(open.app).expect(200)).text).toContain('http_requests_total');
    } finally {
      await closed.close();
      await open.close();
    }

    // The environment: a short or spaced token, or a token together with METRICS_PUBLIC, is a start-up error.
    const env = { DATA_DIR: gw.dataDir };
    expect(loadConfig({ ...env, METRICS_TOKEN: METRICS_TOKEN }).metricsToken).toBe(METRICS_TOKEN);
    expect(loadConfig({ ...env, METRICS_PUBLIC: 'true' }).metricsPublic).toBe(true);
    expect(loadConfig(env)).toMatchObject({ metricsToken: undefined, metricsPublic: false });
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ ...env, METRICS_TOKEN: `${METRICS_TOKEN} x` })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ ...env, METRICS_TOKEN, METRICS_PUBLIC: 'true' })).toThrow(/METRICS_PUBLIC/);
  });

  it('/readyz answers 503 when the store does not', async () => {
    const down = await startTestGateway();
    await down.store.database.close();
    try {
      expect((await request(down.app).get('/readyz')).status).toBe(503);
    } finally {
      await down.close().catch(() => undefined);
    }
  });

  it('answers every route of the table with index.html 200 (private, no-cache), unknown paths with 404', async () => {
    for (const route of ROUTES.filter((r) => r.path !== '*')) {
      const res = await request(gw.app).get(route.path);
      expect(res.status, route.path).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.text).toContain('<div id="root">');
    }
    const missing = await request(gw.app).get('/no/such/page').expect(404);
    expect(missing.text).toContain('<div id="root">');
    expect((await request(gw.app).get('/index.html')).status).toBe(404);
    expect((await request(gw.app).get('/missing.js')).status).toBe(404);
  });

  it('caches hashed assets for a year and compresses with gzip and brotli', async () => {
    const asset = await request(gw.app)
      .get('/assets/main.0123abcd.js')
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    const br = await request(gw.app).get('/assets/main.0123abcd.js').set('Accept-Encoding', 'br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect((await request(gw.app).get('/sw.js').expect(200)).headers['cache-control']).toBe('no-cache');
  });

  it('publishes remotes, serves the manifest per browser, canaries by bucket and rolls back', async () => {
    const dist = (content: string) => {
      const dir = path.join(gw.dataDir, `build-${content}`, 'dist');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, '..', 'package.json'), JSON.stringify({ version: '1.2.3' }));
      writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${content} */`);
      return dir;
    };
    const out: string[] = [];
    await releases(['publish', 'mfe-login', dist('one')], (l) => out.push(l));
    const v1 = /mfe-login (\S+) published/.exec(out[0]!)![1]!;
    expect(v1).toMatch(/^1\.2\.3-[0-9a-f]{10}$/);
    await releases(['promote', 'mfe-login', v1], (l) => out.push(l));
    await releases(['publish', 'mfe-login', dist('one')], (l) => out.push(l));
    expect(out.at(-1)).toContain('already published');

    const manifest = await request(gw.app)
      .get('/remotes/manifest.json')
      .set('Cookie', 'idp.bucket=5')
      .expect(200);
    expect(manifest.headers['cache-control']).toBe('no-store');
    expect(manifest.body.remotes['mfe-login']).toEqual({
      entry: `/remotes/mfe-login/${v1}/remoteEntry.js`,
      version: v1,
    });
    const file = await request(gw.app).get(`/remotes/mfe-login/${v1}/remoteEntry.js`).expect(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(gw.app).get('/remotes/registry.json')).status).toBe(404);
    expect((await request(gw.app).get('/remotes/mfe-login/nope/remoteEntry.js')).status).toBe(404);
    const fresh = await request(gw.app).get('/remotes/manifest.json');
    expect((fresh.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^idp\.bucket=\d+/);

    await releases(['publish', 'mfe-login', dist('two')], (l) => out.push(l));
    const v2 = /mfe-login (\S+) published/.exec(out.at(-1)!)![1]!;
    await releases(['canary', 'mfe-login', v2, '10'], (l) => out.push(l));
    const inCanary = await request(gw.app).get('/remotes/manifest.json').set('Cookie', 'idp.bucket=9');
    const outside = await request(gw.app).get('/remotes/manifest.json').set('Cookie', 'idp.bucket=10');
    expect(inCanary.body.remotes['mfe-login'].version).toBe(v2);
    expect(outside.body.remotes['mfe-login'].version).toBe(v1);

    await releases(['promote', 'mfe-login', v2], (l) => out.push(l));
    expect(
      (await request(gw.app).get('/remotes/manifest.json').set('Cookie', 'idp.bucket=50')).body.remotes[
        'mfe-login'
      ].version,
    ).toBe(v2);
    await releases(['rollback', 'mfe-login'], (l) => out.push(l));
    expect(
      (await request(gw.app).get('/remotes/manifest.json').set('Cookie', 'idp.bucket=50')).body.remotes[
        'mfe-login'
      ].version,
    ).toBe(v1);
    await expect(releases(['promote', 'mfe-login', '9.9.9-unknown'], () => undefined)).rejects.toThrow(
      /no published version/,
    );
    await expect(releases(['publish', 'mfe-evil', dist('one')], () => undefined)).rejects.toThrow(
      /unknown remote/,
    );
  });

  it('serves a release file only from its own version folder: no traversal, no cache header on refusals', async () => {
    const dist = (content: string) => {
      const dir = path.join(gw.dataDir, `traversal-${content}`, 'dist');
      mkdirSync(path.join(dir, 'sub'), { recursive: true });
      writeFileSync(path.join(dir, '..', 'package.json'), JSON.stringify({ version: '7.0.0' }));
      writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${content} */`);
      writeFileSync(path.join(dir, 'sub', 'chunk.js'), `/* chunk ${content} */`);
      return dir;
    };
    const out: string[] = [];
    await releases(['publish', 'mfe-recovery', dist('first')], (l) => out.push(l));
    await releases(['publish', 'mfe-recovery', dist('second')], (l) => out.push(l));
    const [v1, v2] = out.map((l) => /mfe-recovery (\S+)/.exec(l)![1]!);
    // A staging folder as an interrupted publish leaves it, and a file outside every version.
    const staging = `${v1}.tmp-4242`;
    mkdirSync(path.join(gw.dataDir, 'releases', 'mfe-recovery', staging), { recursive: true });
    writeFileSync(path.join(gw.dataDir, 'releases', 'mfe-recovery', staging, 'remoteEntry.js'), 'staged');
    writeFileSync(path.join(gw.dataDir, 'releases', 'secret.txt'), 'not a release file');

    const base = `/remotes/mfe-recovery/${v1}`;
    const ok = await request(gw.app).get(`${base}/sub/chunk.js`).expect(200);
    expect(ok.text).toBe('/* chunk first */');
    expect(ok.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const corpus = [
      `${base}/..%2f..%2fregistry.json`,
      `${base}/..%2F..%2Fregistry.json`,
      `${base}/%2e%2e/%2e%2e/registry.json`,
      `${base}/%2E%2E%2F%2E%2E%2Fregistry.json`,
      `${base}/.%2e/.%2e/registry.json`,
      `${base}/..%5c..%5cregistry.json`,
      `${base}/..%252f..%252fregistry.json`,
      `${base}/%252e%252e%252f%252e%252e%252fregistry.json`,
      `${base}/..%2f${v2}%2fremoteEntry.js`,
      `${base}/..%2f${staging}%2fremoteEntry.js`,
      `${base}/..%2f..%2f..%2fsecret.txt`,
      `${base}/..%2f..%2fmfe-recovery%2f${v2}%2fremoteEntry.js`,
      `${base}/%2fetc%2fpasswd`,
      `${base}//etc/passwd`,
      `${base}/%5cetc%5cpasswd`,
      `${base}/C:%5cWindows%5cwin.ini`,
      `${base}/remoteEntry.js%00.png`,
      `${base}/remoteEntry.js%00`,
      `${base}/sub/%2e%2e/remoteEntry.js`,
      `${base}/sub/./chunk.js`,
      `${base}/.%2fremoteEntry.js`,
      `${base}/%c0%ae%c0%ae/registry.json`,
      `${base}/%`,
      `/remotes/mfe-recovery/${staging}/remoteEntry.js`,
      `/remotes/mfe-recovery/..%2f..%2freleases/registry.json`,
      `/remotes/mfe-recovery/%2e%2e/registry.json`,
    ];
    for (const url of corpus) {
      const res = await request(gw.app).get(url);
      expect([400, 404], url).toContain(res.status);
      expect(res.headers['cache-control'] ?? '', url).not.toMatch(/immutable|max-age=[1-9]/);
      expect(res.text, url).not.toMatch(/remotes|staged|second|not a release file|root:/);
    }
    // Paths a client library would normalise before sending (raw dot segments, backslashes), sent as they are.
    const server = gw.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const raw of [
        `${base}/../../registry.json`,
        `${base}/sub/../../${v2}/remoteEntry.js`,
        `${base}/sub\\..\\..\\${v2}\\remoteEntry.js`,
        `${base}/..\\..\\registry.json`,
      ]) {
        const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
          (resolve, reject) => {
            const req = httpRequest({ host: '127.0.0.1', port, path: raw }, (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (body += chunk));
              response.on('end', () =>
                resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
              );
            });
            req.on('error', reject);
            req.end();
          },
        );
        expect([400, 404], raw).toContain(res.status);
        expect(res.headers['cache-control'] ?? '', raw).not.toMatch(/immutable|max-age=[1-9]/);
        expect(res.body, raw).not.toMatch(/remotes|second/);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses to overwrite a published version with a different build', async () => {
    const dir = path.join(gw.dataDir, 'build-x', 'dist');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'remoteEntry.js'), 'original');
    const lines: string[] = [];
    await releases(['publish', 'mfe-mfa', dir], (l) => lines.push(l));
    const version = /mfe-mfa (\S+)/.exec(lines[0]!)![1]!;
    // The stored build is not the one of that name any more (as a build of other sources under it would be).
    await gw.store.database.db
      .updateTable('release_versions')
      .set({ content_hash: 'tampered' })
      .where('remote', '=', 'mfe-mfa')
      .where('version', '=', version)
      .execute();
    await expect(releases(['publish', 'mfe-mfa', dir], () => undefined)).rejects.toThrow(/different content/);
  });

  it('accepts client error reports (202), validates them, counts them and rate-limits per source', async () => {
    const report = { message: 'boom', url: 'http://localhost/account/login', kind: 'error' };
    await request(gw.app)
      .post('/api/ops/client-errors')
      .set('X-Forwarded-For', '10.9.9.9')
      .send(report)
      .expect(202);
    const bad = await request(gw.app)
      .post('/api/ops/client-errors')
      .send({ message: 'x'.repeat(5000), url: 1, kind: 'nope' })
      .expect(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['message', 'url', 'kind']));
    await request(gw.app)
      .post('/api/ops/client-errors')
      .set('X-Forwarded-For', '10.9.9.9')
      .send(report)
      .expect(202);
    await request(gw.app)
      .post('/api/ops/client-errors')
      .set('X-Forwarded-For', '10.9.9.9')
      .send(report)
      .expect(202);
    const limited = await request(gw.app)
      .post('/api/ops/client-errors')
      .set('X-Forwarded-For', '10.9.9.9')
      .send(report)
      .expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await request(gw.app)
      .post('/api/ops/client-errors')
      .set('Content-Type', 'application/json')
      .send('{"message": "x"'.padEnd(20_000, ' '))
      .expect(413);
    const metrics = await request(gw.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(metrics.text).toContain('client_error_reports_total{kind="error",outcome="accepted"} 3');
    expect(metrics.text).toContain('client_error_reports_total{kind="error",outcome="dropped"} 1');
  });
});
