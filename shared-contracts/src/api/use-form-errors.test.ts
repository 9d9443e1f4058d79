import { describe, expect, it } from 'vitest';
import type { ApiError } from '../protocol.js';
import { formErrorsOf } from './use-form-errors.js';

/** A stand-in for i18next's `t`: the key itself, so the test reads which catalogue entry was chosen. */
const t = (key: string) => key;

function failure(status: number, errors: ApiError['errors'] = {}, statusText = ''): ApiError {
  return { url: '/api/Account/Login', status, statusText, message: '', body: null, errors };
}

describe('formErrorsOf', () => {
  it.each([
    ['an empty 500', failure(500, {}, 'Internal Server Error')],
    ['the timed-out empty 400', failure(400, {}, 'Bad Request')],
    ['a 418 outside the catalogue', failure(418)],
  ])(
    'shows "Something went wrong", never the raw status text, for %s by default (issue 49)',
    (_name, error) => {
      const errors = formErrorsOf(t, error);
      expect(errors.form).toEqual(['errors:unexpectedError']);
      expect(errors.any).toBe(true);
    },
  );

  it.each([
    ['an empty 500', failure(500, {}, 'Internal Server Error')],
    ['the timed-out empty 400', failure(400, {}, 'Bad Request')],
    ['an empty 502', failure(502, {}, 'Bad Gateway')],
  ])('SPEC.md §7: Login, one-time-token and vendor login ignore %s', (_name, error) => {
    const errors = formErrorsOf(t, error, { ignoreEmpty: true });
    expect(errors.form).toEqual([]);
    expect(errors.any).toBe(false);
  });

  it('still shows what a failure with an errors map says, and that the browser is offline', () => {
    const answered = formErrorsOf(t, failure(503, { '': ['serviceUnavailable'], userName: ['required'] }), {
      ignoreEmpty: true,
    });
    expect(answered.form).toEqual(['errors:serviceUnavailable']);
    expect(answered.field('userName')).toEqual(['errors:required']);
    expect(formErrorsOf(t, failure(0), { ignoreEmpty: true }).form).toEqual(['errors:offline']);
  });
});
