// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import { TOAST_EVENT, type ToastEventDetail } from '../../events';
import de from './locales/de.json';
import enGB from './locales/en-GB.json';
import { SessionsSection } from './sessions';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A view with only what the section reads filled in. */
function viewWith(sessions: SecurityCentreView['sessions']): SecurityCentreView {
  return { sessions } as SecurityCentreView;
}

/** In the server's order: this browser first, then the others newest first. */
const SESSIONS: SecurityCentreView['sessions'] = [
  {
    id: 'mine',
    current: true,
    createdAt: Date.UTC(2026, 10, 20, 9),
    lastSeenAt: Date.UTC(2026, 10, 28, 1),
    network: { kind: 'network', prefix: '203.0.113.x' },
    sameNetworkAsCurrent: false,
    userAgent: FIREFOX_WINDOWS,
  },
  {
    id: 'phone',
    current: false,
    createdAt: Date.UTC(2026, 10, 25, 9),
    lastSeenAt: Date.UTC(2026, 10, 27, 18),
    network: { kind: 'network', prefix: '203.0.113.x' },
    sameNetworkAsCurrent: true,
    userAgent: SAFARI_IPHONE,
  },
  {
    id: 'tablet',
    current: false,
    createdAt: Date.UTC(2026, 10, 21, 9),
    lastSeenAt: Date.UTC(2026, 10, 22, 9),
    network: { kind: 'localNetwork' },
    sameNetworkAsCurrent: false,
    userAgent: CHROME_ANDROID_TABLET,
  },
  {
    id: 'unknown',
    current: false,
    createdAt: Date.UTC(2026, 10, 19, 9),
    lastSeenAt: Date.UTC(2026, 10, 19, 10),
    network: null,
    sameNetworkAsCurrent: false,
    userAgent: 'curl/8.5.0',
  },
];

async function render(view: SecurityCentreView, gateway = stubGateway({}), lng = 'en-GB') {
  await renderWithProviders(<SessionsSection view={view} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB }, de: { [SECURITY_CENTRE_NS]: de } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
    lng,
  });
  return gateway;
}

function listenToToasts() {
  const toasts: ToastEventDetail[] = [];
  const listen = (event: Event) => toasts.push((event as CustomEvent<ToastEventDetail>).detail);
  window.addEventListener(TOAST_EVENT, listen);
  return { toasts, stop: () => window.removeEventListener(TOAST_EVENT, listen) };
}

describe('signed-in sessions in the security centre', () => {
  it('tells the sessions apart: browser, system, device type, place, first and last seen; this browser first and labelled', async () => {
    await render(viewWith(SESSIONS));
    const rows = screen.getAllByTestId('session');
    expect(rows).toHaveLength(4);
    expect(rows[0]!.textContent).toContain('Firefox on Windows(This browser)');
    expect(within(rows[0]!).getByTestId('session-where').textContent).toBe('Computer · Network 203.0.113.x');
    expect(rows[0]!.textContent).toContain('Signed in on 20 Nov 2026');
    expect(rows[0]!.textContent).toContain('Last active on 28 Nov 2026');
    expect(within(rows[1]!).getByTestId('session-where').textContent).toBe(
      'Phone · Network 203.0.113.x · Same network as this browser',
    );
    expect(rows[1]!.textContent).toContain('Safari on iOS');
    expect(within(rows[2]!).getByTestId('session-where').textContent).toBe('Tablet · On a local network');
    expect(rows[3]!.textContent).toContain('Unknown browser');
    expect(within(rows[3]!).getByTestId('session-where').textContent).toBe('Network unknown');
    for (const row of rows.slice(1)) expect(row.textContent).not.toContain('This browser');
    // Only the other browsers have a "Sign out", each naming the browser it ends.
    expect(within(rows[0]!).queryAllByRole('button')).toHaveLength(0);
    const phone = screen.getByRole('button', { name: 'Sign out Safari on iOS' });
    // Its description carries the row's details, so two "Chrome on Windows" are told apart by a screen reader.
    expect(document.getElementById(phone.getAttribute('aria-describedby')!)!.textContent).toContain(
      'Same network as this browser',
    );
  });

  it('formats dates in the language of the text shown, also for a language without translations', async () => {
    await render(viewWith(SESSIONS), undefined, 'de');
    expect(screen.getAllByTestId('session')[0]!.textContent).toContain('Angemeldet am 20.11.2026');
    cleanup();
    // Arabic has no strings: the text is en-GB's, and so are the dates (not "٢٠‏/١١‏/٢٠٢٦").
    await render(viewWith(SESSIONS), undefined, 'ar');
    expect(screen.getAllByTestId('session')[0]!.textContent).toContain('Signed in on 20 Nov 2026');
  });

  it('signs one session out by its handle', async () => {
    const { toasts, stop } = listenToToasts();
    const gateway = await render(
      viewWith(SESSIONS),
      stubGateway({ SignOutSession: () => Response.json({}) }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign out Chrome on Android' }));
    await waitFor(() => expect(toasts.map((t) => t.message)).toEqual(['The session has been signed out']));
    stop();
    expect(gateway.calls.find((c) => c.call === 'SignOutSession')?.body).toEqual({ id: 'tablet' });
  });

  it('"Sign out everywhere else" asks first: Cancel changes nothing, the confirmation signs the others out', async () => {
    const { toasts, stop } = listenToToasts();
    const gateway = await render(
      viewWith(SESSIONS),
      stubGateway({ SignOutOtherSessions: () => Response.json({ signedOut: 3 }) }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
    expect(dialog.textContent).toContain('3 other sessions will be signed out');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(gateway.calls.some((c) => c.call === 'SignOutOtherSessions')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const again = screen.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
    const confirm = within(again).getByRole('button', { name: 'Sign out everywhere else' });
    expect(confirm.className).toContain('hr-button--danger');
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(toasts.map((t) => t.message)).toEqual(['You have been signed out everywhere else']),
    );
    stop();
    expect(gateway.calls.filter((c) => c.call === 'SignOutOtherSessions')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('offers nothing to sign out when this browser is the only session', async () => {
    await render(viewWith(SESSIONS.slice(0, 1)));
    expect(screen.getAllByTestId('session')).toHaveLength(1);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
