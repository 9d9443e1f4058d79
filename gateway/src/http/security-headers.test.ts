import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cspNonce, helmetMiddleware, securityHeaders } from './security-headers.js';

function appWithHeaders() {
  const app = express();
  app.use(securityHeaders({ hsts: false }));
  app.get('/', (_req, res) => {
    res.send(cspNonce(res));
  });
  return app;
}

function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found ? found.slice(1) : [];
}

describe('securityHeaders CSP (S33)', () => {
  it("allows styles only from files and the response's nonce: no 'unsafe-inline'", async () => {
    const res = await request(appWithHeaders()).get('/').expect(200);
    const csp = res.headers['content-security-policy'] as string;
    const nonce = res.text;
    expect(directive(csp, 'style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directive(csp, 'script-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(directive(csp, 'style-src-attr')).toEqual([]);
  });

  it('uses a fresh nonce per response', async () => {
    const app = appWithHeaders();
    const [a, b] = await Promise.all([request(app).get('/'), request(app).get('/')]);
    expect(a.text).not.toBe(b.text);
    expect(a.text.length).toBeGreaterThanOrEqual(20);
  });
});

describe('securityHeaders replays helmet', () => {
  // The headers are worked out once per variant; this is the proof that the replay is what helmet itself sends.
  function app(handler: 'replay' | 'helmet', hsts: boolean) {
    const a = express();
    a.use((req, res, next) => {
      res.locals.recaptchaCsp = req.query.recaptcha === '1';
      next();
    });
    if (handler === 'replay') a.use(securityHeaders({ hsts }));
    else
      a.use((_req, res, next) => {
        res.locals.cspNonce = 'fixed';
        next();
      }, helmetMiddleware({ hsts }));
    a.get('/', (_req, res) => {
      res.locals.cspNonce = 'fixed';
      res.json({});
    });
    return a;
  }

  it.each([
    [false, '0'],
    [false, '1'],
    [true, '0'],
    [true, '1'],
  ])('hsts %s, recaptcha %s: the same headers as helmet', async (hsts, recaptcha) => {
    const replay = await request(app('replay', hsts)).get(`/?recaptcha=${recaptcha}`).expect(200);
    const reference = await request(app('helmet', hsts)).get(`/?recaptcha=${recaptcha}`).expect(200);
    const nonce = cspNonceOf(replay.headers['content-security-policy'] as string);
    const withoutDate = (h: Record<string, string>) => {
      const { date: _date, ...rest } = h;
      return rest;
    };
    expect(
      withoutDate(replay.headers as Record<string, string>)['content-security-policy']?.replaceAll(
        nonce,
        'fixed',
      ),
    ).toBe(reference.headers['content-security-policy']);
    expect({
      ...withoutDate(replay.headers as Record<string, string>),
      'content-security-policy': '',
    }).toEqual({
      ...withoutDate(reference.headers as Record<string, string>),
      'content-security-policy': '',
    });
    expect(reference.headers['content-security-policy']).toContain(
      recaptcha === '1' ? 'https://www.google.com' : "frame-src 'self'",
    );
  });
});

function cspNonceOf(csp: string): string {
  return /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
}

describe('securityHeaders on a document’s scripts and stylesheets', () => {
  function app() {
    const a = express();
    a.use(securityHeaders({ hsts: true }));
    a.get('/file', (_req, res) => {
      res.vary('Accept-Encoding').type('text/javascript').send('void 0;');
    });
    return a;
  }
  const DOCUMENT_ONLY = [
    'content-security-policy',
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'x-frame-options',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];

  it.each(['script', 'style'])(
    'a %s keeps nosniff, CORP, the referrer policy and HSTS, and says it varies by destination',
    async (dest) => {
      const res = await request(app()).get('/file').set('Sec-Fetch-Dest', dest).expect(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(res.headers['vary']).toBe('Sec-Fetch-Dest, Accept-Encoding');
      for (const name of DOCUMENT_ONLY) expect(res.headers, name).not.toHaveProperty(name);
    },
  );

  it.each(['document', 'worker', 'serviceworker', 'iframe', 'empty', undefined])(
    'a request for %s gets the whole set, CSP included',
    async (dest) => {
      const req = request(app()).get('/file');
      const res = await (dest === undefined ? req : req.set('Sec-Fetch-Dest', dest)).expect(200);
      for (const name of DOCUMENT_ONLY) expect(res.headers, name).toHaveProperty(name);
      expect(res.headers['vary']).toBe('Accept-Encoding');
    },
  );
});
