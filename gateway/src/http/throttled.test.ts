import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setRetryAfter, waitSeconds } from '../infra/throttle/wait.js';
import { sendTooManyAttempts } from './throttled.js';

describe('throttle answers (issue 50: one place writes Retry-After)', () => {
  it('rounds a wait up to whole seconds, never below 1', () => {
    expect(waitSeconds({ ms: 1 })).toBe(1);
    expect(waitSeconds({ ms: 1000 })).toBe(1);
    expect(waitSeconds({ ms: 1001 })).toBe(2);
    expect(waitSeconds({ ms: 15 * 60_000 })).toBe(900);
    expect(waitSeconds({ seconds: 2.1 })).toBe(3);
    expect(waitSeconds({ seconds: 3600 })).toBe(3600);
    expect(waitSeconds({ ms: 0 })).toBe(1);
    expect(waitSeconds({ ms: -5 })).toBe(1);
    expect(waitSeconds({ seconds: Number.NaN })).toBe(1);
  });

  it('answers the errors map with the status asked for and Retry-After in seconds', async () => {
    const app = express();
    app.get('/sign-in', (_req, res) => sendTooManyAttempts(res, { ms: 1500 }, 400));
    app.get('/centre', (_req, res) => sendTooManyAttempts(res, { seconds: 60 }, 429));
    app.get('/unknown', (_req, res) => sendTooManyAttempts(res, undefined, 429));
    app.get('/bare', (_req, res) => setRetryAfter(res, { ms: 59_001 }).status(429).end());

    const signIn = await request(app).get('/sign-in').expect(400);
    expect(signIn.headers['retry-after']).toBe('2');
    expect(signIn.body.errors).toEqual({ '': ['tooManyAttempts'] });
    const centre = await request(app).get('/centre').expect(429);
    expect(centre.headers['retry-after']).toBe('60');
    expect(centre.body.errors).toEqual({ '': ['tooManyAttempts'] });
    const unknown = await request(app).get('/unknown').expect(429);
    expect(unknown.headers['retry-after']).toBeUndefined();
    expect((await request(app).get('/bare').expect(429)).headers['retry-after']).toBe('60');
  });
});
