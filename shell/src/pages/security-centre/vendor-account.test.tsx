// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import { SecurityCentre } from './security-centre-page';

afterEach(cleanup);

/** A complete view, as the gateway answers it for an account without anything set up. */
function viewOf(extra: Partial<SecurityCentreView> = {}): SecurityCentreView {
  return {
    profile: { userName: 'contoso.1a2b', displayName: 'Vera Vendor', email: null, pendingEmail: null },
    recentSignInUntil: Date.now() + 600_000,
    twoStep: { methods: [], required: false },
    passkeys: [],
    recoveryCodes: { remaining: 0 },
    sessions: [],
    browserRemembered: false,
    rememberedBrowsers: [],
    passwordRules: DEFAULT_PASSWORD_RULES,
    customer: null,
    canSwitchCustomer: false,
    ...extra,
  };
}

async function render(view: SecurityCentreView) {
  const gateway = stubGateway({ SecurityCentreView: () => Response.json(view) });
  await renderWithProviders(<SecurityCentre linkedAccounts={<p>Linked accounts card</p>} />, {
    fetch: gateway.fetch,
  });
  await screen.findByRole('heading', { name: 'Security centre' });
}

describe('the security centre of a vendor account (issue 48, ADR 0041)', () => {
  it('S35 says the account signs in through its provider instead of offering a password, e-mail, passkey or two-step verification', async () => {
    await render(viewOf({ vendorAccount: { provider: 'Contoso Support' } }));
    const section = screen.getByTestId('vendor-account');
    expect(section.textContent).toContain(
      'Your account signs in through Contoso Support; its password and two-step verification are managed there.',
    );
    for (const id of ['email', 'two-step', 'passkeys', 'recovery-codes', 'password'])
      expect(screen.queryByTestId(id), id).toBeNull();
    expect(screen.queryByText('Linked accounts card')).toBeNull();
    expect(screen.queryByRole('link', { name: /passkey|two-step/i })).toBeNull();
    // What a vendor account may still do: its display name and its sessions.
    expect(screen.getByTestId('profile')).toBeTruthy();
    expect(screen.getByTestId('sessions')).toBeTruthy();
  });

  it('a local account still gets every section and no vendor note', async () => {
    await render(viewOf());
    expect(screen.queryByTestId('vendor-account')).toBeNull();
    for (const id of ['email', 'two-step', 'passkeys', 'recovery-codes', 'password'])
      expect(screen.getByTestId(id), id).toBeTruthy();
    expect(screen.getByText('Linked accounts card')).toBeTruthy();
  });
});
