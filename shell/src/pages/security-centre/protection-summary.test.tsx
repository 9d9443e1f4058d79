// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders } from 'shared-contracts/testing';
import de from './locales/de.json';
import enGB from './locales/en-GB.json';
import { ProtectionSummary, RECOVERY_CODES_LOW } from './protection-summary';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

/** A view with only what the summary reads filled in. */
function view(parts: {
  methods?: number;
  passkeys?: number;
  sessions?: number;
  codes?: number;
  vendor?: string;
}): SecurityCentreView {
  return {
    twoStep: {
      methods: Array.from({ length: parts.methods ?? 0 }, () => ({
        method: 'authenticator',
        isDefault: true,
      })),
      required: false,
    },
    passkeys: Array.from({ length: parts.passkeys ?? 0 }, (_, i) => ({ id: String(i) })),
    sessions: Array.from({ length: parts.sessions ?? 1 }, (_, i) => ({ id: String(i) })),
    recoveryCodes: { remaining: parts.codes ?? 10 },
    vendorAccount: parts.vendor ? { provider: parts.vendor } : undefined,
  } as unknown as SecurityCentreView;
}

async function render(v: SecurityCentreView, language: 'en-GB' | 'de' = 'en-GB') {
  await renderWithProviders(<ProtectionSummary view={v} />, {
    resources: { [language]: { [SECURITY_CENTRE_NS]: language === 'de' ? de : enGB } },
    lng: language,
    defaultNS: SECURITY_CENTRE_NS,
  });
  return screen.getAllByRole('listitem').map((item) => item.textContent);
}

describe('the summary of the account’s protection (issue 49)', () => {
  it.each([
    [
      { methods: 1, passkeys: 2, sessions: 3 },
      ['Two-step verification on', '2 passkeys', 'signed in on 3 devices'],
    ],
    [
      { methods: 0, passkeys: 1, sessions: 1 },
      ['Two-step verification off', '1 passkey', 'signed in on 1 device'],
    ],
    [
      { methods: 2, passkeys: 0, sessions: 2 },
      ['Two-step verification on', 'no passkeys', 'signed in on 2 devices'],
    ],
  ])('counts %o as %o', async (parts, facts) => {
    expect(await render(view(parts))).toEqual(facts);
  });

  it('warns, in words, when two-step verification is off, and leads to its section', async () => {
    await render(view({ methods: 0 }));
    const warning = screen.getByTestId('summary-warning-twoStepOff');
    expect(warning.textContent).toMatch(/^Warning:/);
    expect(screen.getByRole('link', { name: 'Go to Two-step verification' }).getAttribute('href')).toBe(
      '#two-step-heading',
    );
    expect(screen.queryByTestId('summary-warning-codesLow')).toBeNull();
  });

  it.each([
    [0, 'You have no recovery codes left'],
    [1, 'Only 1 recovery code is left'],
    [RECOVERY_CODES_LOW, `Only ${RECOVERY_CODES_LOW} recovery codes are left`],
  ])('warns when %i recovery codes are left', async (codes, text) => {
    await render(view({ methods: 1, codes }));
    expect(screen.getByTestId('summary-warning-codesLow').textContent).toContain(text);
    expect(screen.getByRole('link', { name: 'Go to Recovery codes' }).getAttribute('href')).toBe(
      '#recovery-codes-heading',
    );
  });

  it('says nothing of recovery codes while enough are left', async () => {
    await render(view({ methods: 1, codes: RECOVERY_CODES_LOW + 1 }));
    expect(screen.queryByRole('paragraph')).toBeNull();
    expect(screen.queryByTestId('summary-warning-codesLow')).toBeNull();
  });

  it('a vendor account names its provider, with no two-step or passkey facts and no warnings', async () => {
    expect(await render(view({ vendor: 'Contoso ID', sessions: 2 }))).toEqual([
      'You sign in through Contoso ID',
      'signed in on 2 devices',
    ]);
    expect(screen.queryByTestId('summary-warning-twoStepOff')).toBeNull();
  });

  it('speaks German with German plurals', async () => {
    expect(await render(view({ methods: 1, passkeys: 1, sessions: 2 }), 'de')).toEqual([
      'Bestätigung in zwei Schritten an',
      '1 Passkey',
      'auf 2 Geräten angemeldet',
    ]);
  });
});
