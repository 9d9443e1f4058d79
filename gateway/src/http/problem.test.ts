import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { sendValidationProblem } from './problem.js';

/** The parts of an Express response the problem writer uses, recording what it sends. */
function fakeResponse(locale: string) {
  const sent: { status?: number; body?: { title: string; detail: string; errors: unknown } } = {};
  const res = {
    locals: { locale },
    get: () => undefined,
    set() {
      return res;
    },
    status(code: number) {
      sent.status = code;
      return res;
    },
    json(body: NonNullable<typeof sent.body>) {
      sent.body = body;
      return res;
    },
  };
  return { res: res as unknown as Response, sent };
}

describe('validation problem (SPEC.md §4 errors map, §5 required)', () => {
  it('keeps `required` in the map and names the missing field in the detail', () => {
    const { res, sent } = fakeResponse('en-GB');
    sendValidationProblem(res, {
      Username: ['required'],
      password: ['required', 'passwordTooShort|{"n":8}'],
    });
    expect(sent.status).toBe(400);
    expect(sent.body!.errors).toEqual({
      username: ['required'],
      password: ['required', 'passwordTooShort|{"n":8}'],
    });
    expect(sent.body!.detail).toBe(
      'username is required. password is required. Password must be at least 8 characters.',
    );
  });

  it('says "This field is required." where no field is named (the form-level key)', () => {
    const { res, sent } = fakeResponse('fr-CA');
    sendValidationProblem(res, { '': ['required'] });
    expect(sent.body!.detail).toBe('Ce champ est obligatoire.');
  });
});
