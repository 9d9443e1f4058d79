/** What an operator reads on /metrics (issue 41): latency per call, sign-ins, the process's own state. */
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { Metrics } from './metrics.js';

const gateways: TestGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gw) => gw.close()));
});

describe('metrics', () => {
  it('renders a histogram with cumulative buckets, its sum and count', () => {
    const metrics = new Metrics();
    metrics.observe('http_request_duration_seconds', { call: '/x', status: '2xx' }, 0.004);
    metrics.observe('http_request_duration_seconds', { call: '/x', status: '2xx' }, 0.2);
    const text = metrics.render();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{call="/x",status="2xx",le="0.005"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{call="/x",status="2xx",le="0.25"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{call="/x",status="2xx",le="+Inf"} 2');
    expect(text).toContain('http_request_duration_seconds_count{call="/x",status="2xx"} 2');
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{quantile="0\.99"\} \d/m);
    expect(text).toMatch(/^process_memory_bytes\{kind="rss"\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_uptime_seconds \d+$/m);
  });

  it('labels latency by the route matched, never by the raw path a client sent', async () => {
    const gw = await startTestGateway();
    gateways.push(gw);
    await request(gw.app).get('/api/Account/User').expect(200);
    await request(gw.app).get('/api/Account/SystemStatus').expect(200);
    await request(gw.app).get('/api/Account/NoSuchCall-a1b2c3').expect(404);
    const text = gw.metrics.render();
    expect(text).toContain('http_request_duration_seconds_count{call="/api/Account/User",status="2xx"} 1');
    expect(text).toContain(
      'http_request_duration_seconds_count{call="/api/Account/SystemStatus",status="2xx"} 1',
    );
    expect(text).toContain('http_request_duration_seconds_count{call="/api/other",status="4xx"} 1');
    expect(text).not.toContain('a1b2c3');
  });
});
