import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleAccess, ReleasesView } from 'shared-contracts/console';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { ReleasesPage } from './releases-page';
import { HEALTH_REFRESH_MS } from './releases.api';

afterEach(cleanup);

/** Text as read, without the Unicode isolates that keep names and versions in order right to left. */
const plain = (element: Element) => (element.textContent ?? '').replace(/[\u2068\u2069]/g, '');

const RELEASE_MANAGER: ConsoleAccess = {
  grants: [{ role: 'releaseManager', partnerId: null, customerId: null }],
  permissions: ['console.releases.read', 'console.releases.change'],
  secondFactorReady: true,
};

const version = (name: string, activatedAt: string | null) => ({
  version: name,
  publishedAt: '2026-11-20T10:00:00.000Z',
  publishedBy: 'cli:deploy',
  activatedAt,
  activatedBy: activatedAt ? 'releasemanager' : null,
  bytesOnWire: 48_213,
  requires: { react: '^19.3.1', 'shared-contracts': '^1.0.0' },
});

const GUARD = { minPageLoads: 100, minFailureRate: 0.02, ratio: 2 };

function view(canary: { version: string; percent: number } | null): ReleasesView {
  return {
    remotes: [
      {
        id: 'mfe-login',
        active: '0.1.0-aaa',
        canary: canary
          ? { ...canary, startedAt: '2026-11-27T09:00:00.000Z', startedBy: 'releasemanager' }
          : null,
        guard: GUARD,
        versions: [version('0.2.0-bbb', null), version('0.1.0-aaa', '2026-11-21T08:00:00.000Z')],
      },
    ],
  };
}

const HEALTH = {
  remote: 'mfe-login',
  window: '15m',
  versions: [
    {
      version: '0.1.0-aaa',
      role: 'active',
      pageLoads: 1200,
      loadFailures: 3,
      clientErrors: 1,
      failureRate: 0.0033,
    },
  ],
};

async function renderPage(answers: StubAnswers = {}, options: { lng?: string; access?: ConsoleAccess } = {}) {
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(options.access ?? RELEASE_MANAGER),
    Releases: () => Response.json(view(null)),
    ReleaseHealth: ({ query }) => Response.json({ ...HEALTH, window: query.get('window') }),
    ReleaseHistory: () =>
      Response.json({
        events: [
          {
            id: '2',
            at: '2026-11-27T09:30:00.000Z',
            remote: 'mfe-login',
            action: 'canaryEndedByGuard',
            version: '0.2.0-bbb',
            percent: 50,
            actor: 'guard',
            reason: null,
            figures: { canaryPageLoads: 120, canaryFailureRate: 0.25, activeFailureRate: 0.01 },
          },
          {
            id: '1',
            at: '2026-11-27T09:00:00.000Z',
            remote: 'mfe-login',
            action: 'canaryStarted',
            version: '0.2.0-bbb',
            percent: 50,
            actor: 'releasemanager',
            reason: 'Try the new sign-in',
            figures: null,
          },
        ],
      }),
    ...answers,
  });
  const lng = options.lng ?? 'en-GB';
  const result = await renderWithProviders(<ReleasesPage />, {
    path: '/admin/releases',
    fetch: gateway.fetch,
    lng,
    resources: { 'en-GB': { 'mfe-admin': enGB }, de: { 'mfe-admin': de } },
  });
  return { calls: gateway.calls, ...result };
}

describe('/admin/releases', () => {
  it('shows each remote: active version, canary, guard, health, versions with who and when, size and requirements', async () => {
    await renderPage();
    const card = await screen.findByTestId('release-mfe-login');
    expect(within(card).getByTestId('release-mfe-login-active').textContent).toBe('0.1.0-aaa');
    expect(within(card).getByTestId('release-mfe-login-canary').textContent).toBe('No canary');
    expect(plain(card)).toContain('Ends a canary after 100 page loads when its failure rate is above 2%');
    const versions = within(card).getByTestId('versions-mfe-login');
    expect(plain(versions)).toContain('48.2 kB');
    expect(plain(versions)).toContain('by cli:deploy');
    expect(plain(versions)).toContain('by releasemanager');
    expect(plain(versions)).toContain('^19.3.1');
    const health = await within(card).findByText('1,200');
    expect(health.closest('tr')!.textContent).toContain('0.33%');
    // The console's navigation is built from the permissions: a release manager sees Releases only.
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Releases']);
    expect(within(nav).getByRole('link').getAttribute('aria-current')).toBe('page');
  });

  it('asks for the health figures again every 10 s while the page is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls } = await renderPage();
      await screen.findByText('1,200');
      const asked = () => calls.filter((c) => c.call === 'ReleaseHealth').length;
      const before = asked();
      await vi.advanceTimersByTimeAsync(HEALTH_REFRESH_MS - 1_000);
      expect(asked()).toBe(before);
      await vi.advanceTimersByTimeAsync(1_000);
      await waitFor(() => expect(asked()).toBe(before + 1));
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for health again over the window chosen', async () => {
    const { calls } = await renderPage();
    await screen.findByText('1,200');
    fireEvent.click(screen.getByRole('radio', { name: '24 hours' }));
    await waitFor(() =>
      expect(calls.some((c) => c.call === 'ReleaseHealth' && c.query.get('window') === '24h')).toBe(true),
    );
    expect(screen.getByText('Health over the last 24 hours')).toBeTruthy();
  });

  it('starts a canary once confirmed, says so in the card and shows the new state without a reload', async () => {
    let canary: { version: string; percent: number } | null = null;
    const { calls } = await renderPage({
      Releases: () => Response.json(view(canary)),
      StartCanary: ({ body }) => {
        const { version: v, percent } = body as { version: string; percent: number };
        canary = { version: v, percent };
        return Response.json({});
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Start a canary' }));
    const dialog = screen.getByRole('dialog', { name: 'Canary of mfe-login' });
    const share = within(dialog).getByLabelText('Share of browsers (%)');
    fireEvent.change(share, { target: { value: '50' } });
    expect(plain(within(dialog).getByTestId('release-dialog-summary'))).toBe(
      'mfe-login 0.2.0-bbb will be served to 50% of browsers; the others keep 0.1.0-aaa.',
    );
    // Right to left, the version keeps its order: it is isolated in the sentence (not "bbb-0.2.0").
    expect(within(dialog).getByTestId('release-dialog-summary').textContent).toContain(
      '\u20680.2.0-bbb\u2069',
    );
    expect(calls.some((c) => c.call === 'StartCanary')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason (optional, recorded in the history)'), {
      target: { value: 'Try the new sign-in' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the canary' }));
    await waitFor(() =>
      expect(plain(screen.getByTestId('release-mfe-login-result'))).toBe(
        'mfe-login 0.2.0-bbb is now served to 50% of browsers.',
      ),
    );
    expect(calls.find((c) => c.call === 'StartCanary')?.body).toEqual({
      remote: 'mfe-login',
      version: '0.2.0-bbb',
      percent: 50,
      reason: 'Try the new sign-in',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(plain(screen.getByTestId('release-mfe-login-canary'))).toContain(
        '0.2.0-bbb for 50% of browsers',
      ),
    );
    expect(screen.getByRole('button', { name: 'End the canary' })).toBeTruthy();
  });

  it('sets the canary guard: the rate is typed in percent and sent as a fraction', async () => {
    const { calls } = await renderPage({ SetCanaryGuard: () => Response.json({}) });
    fireEvent.click(await screen.findByRole('button', { name: 'Canary guard' }));
    const dialog = screen.getByRole('dialog', { name: 'Canary guard of mfe-login' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Failure rate above (%)').value).toBe('2');
    fireEvent.change(within(dialog).getByLabelText('Minimum page loads of the canary'), {
      target: { value: '200' },
    });
    fireEvent.change(within(dialog).getByLabelText('Failure rate above (%)'), { target: { value: '2.5' } });
    fireEvent.change(within(dialog).getByLabelText('And above the active version’s times'), {
      target: { value: '3' },
    });
    expect(plain(within(dialog).getByTestId('release-dialog-summary'))).toBe(
      'A canary of mfe-login will be ended automatically once it has 200 page loads and its failure rate is above 2.5% and above 3 times the active version’s.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save the guard' }));
    await waitFor(() =>
      expect(plain(screen.getByTestId('release-mfe-login-result'))).toBe(
        'The canary guard of mfe-login has been saved.',
      ),
    );
    expect(calls.find((c) => c.call === 'SetCanaryGuard')?.body).toEqual({
      remote: 'mfe-login',
      minPageLoads: 200,
      minFailureRate: 0.025,
      ratio: 3,
    });
  });

  it('ends a canary once confirmed; focus goes to the card, not to the top of the page', async () => {
    let canary: { version: string; percent: number } | null = { version: '0.2.0-bbb', percent: 25 };
    const { calls } = await renderPage({
      Releases: () => Response.json(view(canary)),
      EndCanary: () => {
        canary = null;
        return Response.json({});
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'End the canary' }));
    const dialog = screen.getByRole('dialog', { name: 'End the canary of mfe-login?' });
    expect(plain(within(dialog).getByTestId('release-dialog-summary'))).toBe(
      'mfe-login 0.2.0-bbb will no longer be served; every browser gets 0.1.0-aaa on its next page load.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'End the canary' }));
    await waitFor(() => expect(plain(screen.getByTestId('release-mfe-login-canary'))).toBe('No canary'));
    expect(calls.find((c) => c.call === 'EndCanary')?.body).toEqual({ remote: 'mfe-login' });
    expect(screen.queryByRole('button', { name: 'End the canary' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'mfe-login' })),
    );
  });

  it('checks the share before any call: 1 to 99, whole', async () => {
    const { calls } = await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Start a canary' }));
    const dialog = screen.getByRole('dialog', { name: 'Canary of mfe-login' });
    fireEvent.change(within(dialog).getByLabelText('Share of browsers (%)'), { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start the canary' }));
    expect(await within(dialog).findByText('Enter a whole number from 1 to 99.')).toBeTruthy();
    expect(calls.some((c) => c.call === 'StartCanary')).toBe(false);
  });

  it('shows a 400 of the gateway in the dialog, by field, never a raw status', async () => {
    await renderPage({
      PromoteRelease: () => Response.json({ title: 'x', errors: { version: ['required'] } }, { status: 400 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Promote' }));
    const dialog = screen.getByRole('dialog', { name: 'Promote a version of mfe-login' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Promote' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    expect(plain(screen.getByTestId('release-mfe-login-result'))).toBe('');
  });

  it('a refusal for a sign-in that is not recent opens "Confirm it\'s you" in place, then rolls back', async () => {
    let confirmed = false;
    const { calls } = await renderPage({
      RollBackRelease: () =>
        confirmed
          ? Response.json({})
          : Response.json({ title: 'x', errors: { '': ['recentSignInRequired'] } }, { status: 403 }),
      ConfirmItsYouView: () => Response.json({ password: true, passkey: false, secondFactor: [] }),
      ConfirmItsYou: () => {
        confirmed = true;
        return Response.json({ confirmed: true });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back' }));
    const dialog = screen.getByRole('dialog', { name: 'Roll back mfe-login?' });
    expect(plain(within(dialog).getByTestId('release-dialog-summary'))).toBe(
      'mfe-login will go back from 0.1.0-aaa to the version active before it for every browser; any canary ends.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(confirm.textContent).toContain('before you change a release');
    fireEvent.change(await within(confirm).findByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expect(plain(screen.getByTestId('release-mfe-login-result'))).toBe('mfe-login has been rolled back.'),
    );
    expect(calls.filter((c) => c.call === 'RollBackRelease')).toHaveLength(2);
  });

  it('lists the history newest first with the actor, the reason and the guard figures, filtered by date', async () => {
    const { calls } = await renderPage();
    const events = await screen.findAllByTestId('release-event');
    expect(events.map((e) => e.dataset.action)).toEqual(['canaryEndedByGuard', 'canaryStarted']);
    expect(plain(events[0]!)).toContain('Canary of mfe-login 0.2.0-bbb ended by the canary guard');
    expect(plain(events[0]!)).toContain('By the canary guard');
    expect(plain(events[0]!)).toContain('Canary failure rate25%');
    expect(plain(events[1]!)).toContain('Reason: Try the new sign-in');
    expect(screen.getByTestId('history-count').textContent).toBe('2 events');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '26/11/2026' } });
    await waitFor(() =>
      expect(calls.some((c) => c.call === 'ReleaseHistory' && c.query.get('from') === '2026-11-26')).toBe(
        true,
      ),
    );
  });

  it('is in the reader’s language: German words, numbers and sizes', async () => {
    await renderPage({}, { lng: 'de' });
    const card = await screen.findByTestId('release-mfe-login');
    expect(plain(card)).toContain('Aktive Version');
    expect(within(card).getByTestId('versions-mfe-login').textContent).toContain('48,2 kB');
    expect(await within(card).findByText('1.200')).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await screen.findByText('1,200');
    await screen.findAllByTestId('release-event');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});

describe('/admin/releases for an account that may not use it', () => {
  it('says "You don’t have access to the console" to an account without console permissions', async () => {
    const { calls } = await renderPage(
      {},
      { access: { grants: [], permissions: [], secondFactorReady: false } },
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You don’t have access to the console' }),
    ).toBeTruthy();
    expect(screen.queryByText('Forbidden')).toBeNull();
    expect(calls.some((c) => c.call === 'Releases')).toBe(false);
  });

  it('sends an account without a second factor or passkey to set one up in the security centre', async () => {
    const { calls } = await renderPage({}, { access: { ...RELEASE_MANAGER, secondFactorReady: false } });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Set up two-step verification or a passkey to use the console',
      }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the security centre' }).getAttribute('href')).toBe(
      '/account/',
    );
    expect(calls.some((c) => c.call === 'Releases')).toBe(false);
  });

  it('shows a release reader the page without the actions', async () => {
    await renderPage({}, { access: { ...RELEASE_MANAGER, permissions: ['console.releases.read'] } });
    await screen.findByTestId('release-mfe-login');
    expect(screen.queryByRole('button', { name: 'Start a canary' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Roll back' })).toBeNull();
  });
});
