// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleAccessApi } from 'shared-contracts/account-ui';
import type { AppStore } from 'shared-contracts/api';
import type { ConsoleAccess } from 'shared-contracts/console';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGBCommon from '../locales/en-GB/common.json';
import { AccountMenu } from './account-menu';

afterEach(cleanup);

let lastStore: AppStore | undefined;
const store = () => lastStore!;

const NO_CONSOLE: ConsoleAccess = { grants: [], permissions: [], secondFactorReady: false };

async function render(access: ConsoleAccess = NO_CONSOLE) {
  const gateway = stubGateway({ ConsoleAccess: () => Response.json(access) });
  const result = await renderWithProviders(
    <>
      <AccountMenu name="Émilie Dupont" />
      <button type="button">Elsewhere</button>
    </>,
    { resources: { 'en-GB': { common: enGBCommon } }, defaultNS: 'common', fetch: gateway.fetch },
  );
  lastStore = result.store;
  return screen.getByRole('button', { name: 'Émilie Dupont' });
}

/** Resolves once the menu's ConsoleAccess has been answered. */
async function accessAnswered() {
  await waitFor(() =>
    expect(consoleAccessApi.endpoints.consoleAccess.select()(store().getState()).isSuccess).toBe(true),
  );
}

describe('the header’s account menu (a WAI-ARIA disclosure, issue 49)', () => {
  it('is a button with the person’s name that shows and hides its two links', async () => {
    const button = await render();
    expect(screen.getByRole('navigation', { name: 'Your account' })).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(list.hidden).toBe(false);
    expect(screen.getByRole('link', { name: 'Security centre' }).getAttribute('href')).toBe('/account/');
    expect(screen.getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe('/account/logout');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(list.hidden).toBe(true);
  });

  it('closes on Escape and gives focus back to the button', async () => {
    const button = await render();
    fireEvent.click(button);
    const link = screen.getByRole('link', { name: 'Security centre' });
    act(() => link.focus());
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('closes when focus or a pointer goes elsewhere, and when one of its links is followed', async () => {
    const button = await render();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.click(button);
    act(() => elsewhere.focus());
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    fireEvent.pointerDown(elsewhere);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('link', { name: 'Security centre' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  describe('"Administration" (the operators\' console, issue 51)', () => {
    it('shows for an account with a console permission, linking to /admin, before Sign out', async () => {
      const button = await render({
        grants: [{ role: 'releaseManager', partnerId: null, customerId: null }],
        permissions: ['console.releases.read', 'console.releases.change'],
        secondFactorReady: true,
      });
      fireEvent.click(button);
      const link = await screen.findByRole('link', { name: 'Administration' });
      expect(link.getAttribute('href')).toBe('/admin');
      expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual([
        'Security centre',
        'Administration',
        'Sign out',
      ]);
    });

    it('is not there for an account without one (an employee, support, a customer administrator)', async () => {
      const button = await render({
        grants: [{ role: 'support', partnerId: 'p1', customerId: null }],
        permissions: [],
        secondFactorReady: true,
      });
      fireEvent.click(button);
      await accessAnswered();
      expect(screen.getAllByRole('link')).toHaveLength(2);
      expect(screen.queryByRole('link', { name: 'Administration' })).toBeNull();
    });
  });
});
