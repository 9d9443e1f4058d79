import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cspNonce, securityHeaders } from './security-headers.js';

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
