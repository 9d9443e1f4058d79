import { describe, expect, it } from 'vitest';
import { formErrorsOf } from '../api/use-form-errors.js';
import type { ApiError } from '../protocol.js';
import {
  confirmedChange,
  isConfirmItsYouAsked,
  settleConfirmItsYou,
  subscribeConfirmItsYouHost,
} from './confirm-its-you.js';

const refusal: ApiError = {
  url: '/api/Account/UpdateProfile',
  status: 403,
  statusText: 'Forbidden',
  message: 'Forbidden',
  body: { errors: { '': ['recentSignInRequired'] } },
  errors: {},
};

/** A base query answering from a list, recording what it was asked. */
function answering(...results: ({ data: unknown } | { error: ApiError })[]) {
  const calls: unknown[] = [];
  const baseQuery = (call: unknown) => {
    calls.push(call);
    return Promise.resolve(results.shift() ?? { data: 'unexpected' });
  };
  return { calls, baseQuery };
}

const change = confirmedChange((displayName: string) => ({ url: 'UpdateProfile', body: { displayName } }));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("confirm it's you (issue 49, ADR 0045)", () => {
  it('sends the very same call again once the host confirms, and its answer is the change’s', async () => {
    const unsubscribe = subscribeConfirmItsYouHost(() => undefined);
    try {
      const { calls, baseQuery } = answering({ error: refusal }, { data: { saved: true } });
      const result = change('Ada Typed', undefined, undefined, baseQuery);
      await tick();
      expect(isConfirmItsYouAsked()).toBe(true);
      settleConfirmItsYou(true);
      expect(await result).toEqual({ data: { saved: true } });
      expect(calls).toEqual([
        { url: 'UpdateProfile', body: { displayName: 'Ada Typed' } },
        { url: 'UpdateProfile', body: { displayName: 'Ada Typed' } },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it('sends nothing again when cancelled; the card reads why in words, never the status text', async () => {
    const unsubscribe = subscribeConfirmItsYouHost(() => undefined);
    try {
      const { calls, baseQuery } = answering({ error: refusal });
      const result = change('Not Confirmed', undefined, undefined, baseQuery);
      await tick();
      settleConfirmItsYou(false);
      const outcome = await result;
      expect(calls).toHaveLength(1);
      expect('error' in outcome && outcome.error.errors).toEqual({ '': ['confirmItsYouCancelled'] });
      const t = (key: string) => `t:${key}`;
      expect(formErrorsOf(t, 'error' in outcome ? outcome.error : undefined).form).toEqual([
        't:errors:confirmItsYouCancelled',
      ]);
    } finally {
      unsubscribe();
    }
  });

  it('does not wait for a dialog nobody can show, and leaves other errors alone', async () => {
    const { calls, baseQuery } = answering({ error: refusal });
    const outcome = await change('Ada', undefined, undefined, baseQuery);
    expect(calls).toHaveLength(1);
    expect('error' in outcome && outcome.error.errors).toEqual({ '': ['confirmItsYouCancelled'] });

    const unsubscribe = subscribeConfirmItsYouHost(() => undefined);
    try {
      const notFound: ApiError = { ...refusal, status: 404, body: { errors: { '': ['notFound'] } } };
      const other = answering({ error: notFound });
      expect(await change('Ada', undefined, undefined, other.baseQuery)).toEqual({ error: notFound });
      expect(isConfirmItsYouAsked()).toBe(false);
    } finally {
      unsubscribe();
    }
  });
});

describe('form errors of a refusal (issue 49: never a raw status text)', () => {
  const t = (key: string) => `t:${key}`;
  it.each([
    ['403 with its code', refusal, ['t:errors:recentSignInRequired']],
    [
      '429 with its code',
      { ...refusal, status: 429, body: { errors: { '': ['tooManyAttempts'] } } },
      ['t:errors:tooManyAttempts'],
    ],
    [
      'an empty 500',
      { ...refusal, status: 500, statusText: 'Internal Server Error', body: null },
      ['t:errors:unexpectedError'],
    ],
    [
      'a proxy’s 502 page',
      { ...refusal, status: 502, statusText: 'Bad Gateway', body: '<html>' },
      ['t:errors:unexpectedError'],
    ],
    ['an empty 403', { ...refusal, body: null }, ['t:errors:unexpectedError']],
    ['offline', { ...refusal, status: 0, statusText: '', body: null }, ['t:errors:offline']],
  ] as const)('%s', (_name, error, form) => {
    expect(formErrorsOf(t, error).form).toEqual(form);
  });
});
