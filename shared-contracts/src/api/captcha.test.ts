// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../protocol.js';
import type { AccountCall } from './account-base-query.js';
import { baseApi } from './base-api.js';
import {
  cancelCaptcha,
  completeCaptcha,
  isCaptchaRequired,
  requestCaptcha,
  selectCaptcha,
  selectCaptchaInProgress,
} from './captcha.js';
import { configureApiClient } from './client-config.js';
import { createAppStore } from './store.js';

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({ captchaProbe: build.mutation<unknown, AccountCall>({ query: (call) => call }) }),
});

function recordingFetch() {
  const sent: string[] = [];
  const fetchStub = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    sent.push(`${init.method ?? 'GET'} ${url.split('?')[0]}`);
    const body = url.includes('Antiforgery') ? { token: 't' } : { ok: true };
    return Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  };
  return { sent, fetchStub };
}

describe('captcha state and the API client (SPEC.md §4 "Captcha")', () => {
  it('while a challenge is in progress, guarded calls are cancelled, not sent; others go out', async () => {
    const server = recordingFetch();
    configureApiClient({ fetch: server.fetchStub });
    const store = createAppStore();
    requestCaptcha(store.dispatch, { action: 'login', onSolved: () => undefined });
    expect(selectCaptchaInProgress(store.getState())).toBe(true);

    for (const url of ['Login', 'Recover', 'login', 'SendOTP', 'Link']) {
      const result = await store.dispatch(probeApi.endpoints.captchaProbe.initiate({ url }));
      expect('error' in result && isCaptchaRequired(result.error as ApiError)).toBe(true);
    }
    expect(server.sent.filter((s) => !s.includes('Antiforgery'))).toEqual([]);
    await store.dispatch(probeApi.endpoints.captchaProbe.initiate({ url: 'VerifyCaptcha', body: {} }));
    expect(server.sent).toContain('POST /api/Account/VerifyCaptcha');

    cancelCaptcha(store.dispatch);
    await store.dispatch(probeApi.endpoints.captchaProbe.initiate({ url: 'Login', body: {} }));
    expect(server.sent).toContain('POST /api/Account/Login');
  });

  it('on success the widget hides first, then the success callback re-sends the action', () => {
    const store = createAppStore();
    const seen: boolean[] = [];
    requestCaptcha(store.dispatch, {
      action: 'recover',
      onSolved: () => seen.push(selectCaptchaInProgress(store.getState())),
    });
    const state = selectCaptcha(store.getState());
    expect(state).toMatchObject({ show: true, target: 'recover' });
    completeCaptcha(store.dispatch, state.callbackId);
    expect(seen).toEqual([false]);
    // A stale id runs nothing.
    completeCaptcha(store.dispatch, state.callbackId);
    expect(seen).toEqual([false]);
  });
});
