// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import { TOAST_EVENT, type ToastEventDetail } from '../../events';
import enGB from './locales/en-GB.json';
import { RememberedBrowsersSection } from './remembered-browsers';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A view with only what the section reads filled in. */
function viewWith(rememberedBrowsers: SecurityCentreView['rememberedBrowsers']): SecurityCentreView {
  return { rememberedBrowsers } as SecurityCentreView;
}

const BROWSERS: SecurityCentreView['rememberedBrowsers'] = [
  {
    id: 'mine',
    current: true,
    rememberedAt: Date.UTC(2026, 10, 1, 9),
    lastUsedAt: null,
    ip: '203.0.113.0/24',
    userAgent: CHROME_LINUX,
  },
  {
    id: 'other',
    current: false,
    rememberedAt: Date.UTC(2026, 10, 2, 9),
    lastUsedAt: Date.UTC(2026, 10, 3, 9),
    ip: null,
    userAgent: FIREFOX_WINDOWS,
  },
];

async function render(view: SecurityCentreView, gateway = stubGateway({})) {
  await renderWithProviders(<RememberedBrowsersSection view={view} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  return gateway;
}

describe('remembered browsers in the security centre', () => {
  it('lists each browser with its system, where and when, marks this one, and names what each button forgets', async () => {
    await render(viewWith(BROWSERS));
    const rows = screen.getAllByTestId('remembered-browser');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Chrome on Linux(This browser)');
    expect(rows[0]!.textContent).toContain('from 203.0.113.0/24');
    expect(rows[0]!.textContent).toContain('Not used yet');
    expect(rows[1]!.textContent).toContain('Firefox on Windows');
    expect(rows[1]!.textContent).toContain('Last used on');
    expect(rows[1]!.textContent).not.toContain('This browser');
    expect(screen.getByRole('button', { name: 'Forget this browser' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Forget Firefox on Windows' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Forget all browsers' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Remembered browsers' })).toBeTruthy();
  });

  it('forgets one by its handle and says so', async () => {
    const toasts: ToastEventDetail[] = [];
    const listen = (event: Event) => toasts.push((event as CustomEvent<ToastEventDetail>).detail);
    window.addEventListener(TOAST_EVENT, listen);
    const gateway = await render(
      viewWith(BROWSERS),
      stubGateway({ ForgetRememberedBrowser: () => Response.json({}) }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Forget Firefox on Windows' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Forget Firefox on Windows?' });
    expect(dialog.textContent).toContain('It will ask for two-step verification at its next sign-in.');
    expect(gateway.calls.some((c) => c.call === 'ForgetRememberedBrowser')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Forget browser' }));
    await waitFor(() => expect(toasts.map((t) => t.message)).toEqual(['The browser has been forgotten']));
    window.removeEventListener(TOAST_EVENT, listen);
    expect(gateway.calls.find((c) => c.call === 'ForgetRememberedBrowser')?.body).toEqual({ id: 'other' });
    // The result is in the card too, not only in the 2-second toast.
    expect(screen.getByTestId('remembered-browsers-status').textContent).toBe(
      'The browser has been forgotten',
    );
  });

  it('asks before forgetting all, naming how many, and Cancel forgets nothing', async () => {
    const gateway = await render(
      viewWith(BROWSERS),
      stubGateway({ ForgetAllRememberedBrowsers: () => Response.json({ forgotten: 2 }) }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Forget all browsers' }));
    expect(screen.getByRole('alertdialog', { name: 'Forget all 2 remembered browsers?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(gateway.calls.some((c) => c.call.startsWith('Forget'))).toBe(false);
    expect(screen.getByTestId('remembered-browsers-status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Forget all browsers' }));
    fireEvent.click(screen.getByRole('button', { name: 'Forget all' }));
    await waitFor(() =>
      expect(screen.getByTestId('remembered-browsers-status').textContent).toBe(
        'All remembered browsers have been forgotten',
      ),
    );
    expect(gateway.calls.filter((c) => c.call === 'ForgetAllRememberedBrowsers')).toHaveLength(1);
  });

  it('says when no browser is remembered, and offers nothing to forget', async () => {
    await render(viewWith([]));
    expect(screen.getByText('No browser is remembered for your account.')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
