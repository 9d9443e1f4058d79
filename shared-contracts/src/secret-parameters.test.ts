import { describe, expect, it } from 'vitest';
import { queryCarriesSecret, SECRET_QUERY_PARAMETERS } from './secret-parameters.js';

describe('queryCarriesSecret (S16, issue 48)', () => {
  it.each([
    '?token=abc',
    'TOKEN=abc',
    '?confirmEmail=abc',
    '?tab=profile&confirmemail=abc',
    '?id=abc',
    '?logoutId=abc',
    '?returnUrl=%2Faccount%2F%3FconfirmEmail%3Dabc',
    '?ReturnUrl=/account/login/ott?token=abc',
    '?returnUrl=%2Faccount%2Flogin%3FreturnUrl%3D%252Faccount%252F%253FconfirmEmail%253Dabc',
    ...SECRET_QUERY_PARAMETERS.map((name) => `?${name}=`),
  ])('%s carries a secret', (query) => {
    expect(queryCarriesSecret(query)).toBe(true);
  });

  it.each([
    '',
    '?returnUrl=%2Faccount%2F',
    '?returnUrl=%2Fconnect%2Fauthorize%3Fresponse_type%3Dcode%26code_challenge%3Dx',
    '?tab=profile',
    '?reason=inactivity',
    '?idle=1&tokens=2',
  ])('%s carries none', (query) => {
    expect(queryCarriesSecret(query)).toBe(false);
  });
});
