import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { SecureLoginPage } from './secure-sign-in-page';

afterEach(cleanup);

describe('SecureLoginPage', () => {
  it('asks for assertion options on arrival; a failure ends quietly with the message, Try again and the username form', async () => {
    const gateway = stubGateway({
      AssertionOptions: () =>
        Response.json({
          challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
          rpId: 'localhost',
          userVerification: 'required',
        }),
    });
    await renderWithProviders(<SecureLoginPage />, {
      path: '/account/login/secure?returnUrl=%2Faccount%2F',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-devices': enGB } },
    });
    // jsdom has no WebAuthn: the device step fails, as a cancelled prompt would.
    expect(await screen.findByText(/We could not verify you or the passkey you used/)).toBeTruthy();
    expect(gateway.calls.filter((c) => c.call === 'AssertionOptions')).toHaveLength(1);
    expect(gateway.calls.some((c) => c.call === 'SecureLogin')).toBe(false);
    expect(
      screen.getByRole('link', { name: 'Sign in with your username instead' }).getAttribute('href'),
    ).toBe('/account/login?returnUrl=%2Faccount%2F');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(gateway.calls.filter((c) => c.call === 'AssertionOptions')).toHaveLength(2));
  });
});
