import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, compressBigAnswers } from './compression.js';

function app() {
  const a = express();
  a.use(compressBigAnswers());
  a.get('/api/small', (_req, res) => {
    res.json({ ok: true });
  });
  a.get('/api/big', (_req, res) => {
    res.json({ items: 'x'.repeat(COMPRESS_MIN_BYTES) });
  });
  a.get('/API/big-text', (_req, res) => {
    res.type('text/plain').send('y'.repeat(COMPRESS_MIN_BYTES * 2));
  });
  a.get('/page', (_req, res) => {
    res.type('html').write('<p>'.repeat(COMPRESS_MIN_BYTES));
    res.end();
  });
  return a;
}

describe('compressBigAnswers', () => {
  it('sends a tiny API answer as it is', async () => {
    const res = await request(app()).get('/api/small').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toEqual({ ok: true });
  });

  it('compresses a big API answer (whatever the case of the path)', async () => {
    for (const path of ['/api/big', '/API/big-text']) {
      const res = await request(app()).get(path).set('Accept-Encoding', 'gzip').expect(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toContain('Accept-Encoding');
    }
    const big = await request(app()).get('/api/big').set('Accept-Encoding', 'gzip');
    expect((big.body as { items: string }).items).toHaveLength(COMPRESS_MIN_BYTES);
  });

  it('compresses a streamed page, and nothing for a client that does not accept it', async () => {
    const page = await request(app()).get('/page').set('Accept-Encoding', 'gzip').expect(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    const plain = await request(app()).get('/api/big').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});
