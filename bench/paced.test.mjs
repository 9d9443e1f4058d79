// The paced load generator of section 1 (lib/paced.mjs) tested against a tiny loopback server: it must send every
// scheduled arrival, evenly spaced on its schedule, count latency from the schedule and report what it sent. No time
// budget is asserted: the server answers after at least 10 ms, so no latency can be below that.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPaced } from './lib/paced.mjs';

describe('paced load generator (bench section 1)', () => {
  let server;
  let url;
  const seen = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const arrived = performance.now();
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, cookie: req.headers.cookie });
        // At least 10 ms by the clock the generator reads: a 10 ms timer alone may fire up to a millisecond early by
        // it (libuv starts a timer from the time cached at the start of the loop's turn).
        const answer = () =>
          performance.now() - arrived >= 10
            ? res.writeHead(req.url === '/fail' ? 500 : 209).end('{}')
            : setTimeout(answer, 1);
        setTimeout(answer, 10);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends rate × duration requests, one per scheduled arrival, each answered once', async () => {
    seen.length = 0;
    const r = await runPaced({
      url,
      rate: 40,
      durationS: 1,
      makeRequest: (i) => ({
        method: 'POST',
        path: i === 7 ? '/fail' : `/login?i=${i}`,
        headers: { 'content-type': 'application/json', cookie: `s=${i}` },
        body: JSON.stringify({ i }),
      }),
    });
    expect(r.errors).toBe(0);
    expect(r.dropped).toBe(0);
    expect(r.latencyMs).toHaveLength(40);
    expect(r.statuses).toEqual({ 209: 39, 500: 1 });
    expect(r.answerStatus.filter((s) => s === 500)).toHaveLength(1);
    // Every request went out with its own headers and body.
    expect(seen).toHaveLength(40);
    expect(new Set(seen.map((s) => s.cookie)).size).toBe(40);
    expect(seen.find((s) => s.url === '/login?i=3')?.body).toBe('{"i":3}');
    // The schedule is even: arrival i is due at i · 1000/rate ms.
    r.scheduledMs.forEach((at, i) => expect(at).toBeCloseTo(i * 25, 6));
    // Latency runs from the scheduled time to the answer, so it includes the server's 10 ms and any lateness.
    for (const [i, ms] of r.latencyMs.entries()) expect(ms).toBeGreaterThanOrEqual(r.sentLagMs[i] ?? 0);
    expect(Math.min(...r.latencyMs)).toBeGreaterThanOrEqual(10);
  });

  it('counts an arrival beyond the in-flight cap as dropped, never queued', async () => {
    const r = await runPaced({
      url,
      rate: 200,
      durationS: 0.1,
      maxInFlight: 1,
      makeRequest: () => ({ method: 'GET', path: '/', headers: {} }),
    });
    expect(r.dropped).toBeGreaterThan(0);
    expect(r.latencyMs.length + r.dropped).toBe(20);
  });
});
