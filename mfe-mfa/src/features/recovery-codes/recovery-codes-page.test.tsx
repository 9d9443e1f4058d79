import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { registerNavigator } from 'shared-contracts/api';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { RedeemRecoveryCodesPage } from './recovery-codes-page';

afterEach(() => {
  cleanup();
  registerNavigator(undefined);
});

const CODES = Array.from({ length: 10 }, (_, i) => `ABCD-EFGH-JK${String(i).padStart(2, '0')}`);

describe('RedeemRecoveryCodesPage', () => {
  it('without an id makes a new set on demand, and asks for a new sign-in when the last one is not recent', async () => {
    let recent = false;
    const gateway = stubGateway({
      RedeemRecoveryCode: () =>
        recent
          ? Response.json({ codes: CODES })
          : Response.json({ title: 'x', errors: { '': ['reauthenticationRequired'] } }, { status: 400 }),
    });
    await renderWithProviders(<RedeemRecoveryCodesPage />, {
      path: '/account/redeem-recoverycodes',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    expect(screen.getByText(/A new set replaces your current recovery codes/)).toBeTruthy();
    expect(gateway.calls.some((c) => c.call === 'RedeemRecoveryCode')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Generate new recovery codes' }));
    expect(await screen.findByRole('link', { name: 'Sign in again' })).toBeTruthy();
    recent = true;
    fireEvent.click(screen.getByRole('button', { name: 'Generate new recovery codes' }));
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(list.textContent).toContain(CODES[0]);
    expect(
      gateway.calls.filter((c) => c.call === 'RedeemRecoveryCode').map((c) => c.query.get('id')),
    ).toEqual([null, null]);
  });

  it('shows the set of the id once, with a way on', async () => {
    const gateway = stubGateway({ RedeemRecoveryCode: () => Response.json({ codes: CODES }) });
    await renderWithProviders(<RedeemRecoveryCodesPage />, {
      path: '/account/redeem-recoverycodes?id=set-9&returnUrl=%2Fportal',
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-mfa': enGB } },
    });
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(list.textContent).toContain(CODES[0]);
    expect(
      gateway.calls.filter((c) => c.call === 'RedeemRecoveryCode').map((c) => c.query.get('id')),
    ).toEqual(['set-9']);
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      '/redirect?returnUrl=%2Fportal',
    );
  });
});
