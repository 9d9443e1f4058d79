// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErrorRecord, SystemStatus } from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import deCommon from '../locales/de/common.json';
import enGBCommon from '../locales/en-GB/common.json';
import { DevopsPage } from './devops-page';
import { SignInErrorPage } from './error-pages';

afterEach(cleanup);

const RESOURCES = { 'en-GB': { common: enGBCommon }, de: { common: deCommon } };

/** Answers the account API from a table of `<call name>` → [status, body]; records what was asked. */
function gateway(replies: Record<string, [number, unknown]>) {
  const asked: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    const call = url.pathname.split('/').pop() ?? '';
    asked.push(`${call}${url.search}`);
    const [status, body] = replies[call] ?? (call === 'Antiforgery' ? [200, { token: 't' }] : [404, {}]);
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  };
  return { fetch, asked };
}

const STATUS: SystemStatus = {
  status: 'degraded',
  checkedAt: '2026-11-22T10:00:00.000Z',
  gateway: { version: '0.1.0', since: '2026-11-22T09:00:00.000Z' },
  dependencies: [
    { name: 'database', state: 'ok', since: '2026-11-22T09:00:00.000Z' },
    { name: 'sessionStore', state: 'ok', since: '2026-11-22T09:00:00.000Z' },
    { name: 'mail', state: 'down', since: '2026-11-22T09:30:00.000Z' },
    { name: 'sms', state: 'standIn', since: '2026-11-22T09:00:00.000Z' },
  ],
  remotes: [
    { id: 'mfe-login', version: '1.0.0+aaa', since: null, canary: { version: '1.1.0+bbb', percent: 25 } },
    { id: 'mfe-mfa', version: '2.0.0+ccc', since: null, canary: null },
    { id: 'mfe-recovery', version: null, since: null, canary: null },
    { id: 'mfe-devices', version: '1.0.0+ddd', since: null, canary: null },
    { id: 'mfe-tenant', version: '1.0.0+eee', since: null, canary: null },
  ],
};

describe('/devops', () => {
  it('shows the overall state, each dependency and each remote with its version and canary', async () => {
    const { fetch } = gateway({ SystemStatus: [200, STATUS] });
    await renderWithProviders(<DevopsPage />, { resources: RESOURCES, defaultNS: 'common', fetch });
    expect(await screen.findByText('Degraded')).toBeTruthy();
    expect(screen.getByTestId('devops-row-mail').textContent).toContain('Unreachable');
    expect(screen.getByTestId('devops-row-sms').textContent).toContain('Not configured');
    expect(screen.getByTestId('devops-row-mfe-mfa').textContent).toContain('2.0.0+ccc');
    expect(screen.getByTestId('devops-row-mfe-login').textContent).toContain(
      'Canary 1.1.0+bbb for 25 % of visitors',
    );
    expect(screen.getByTestId('devops-row-mfe-recovery').textContent).toContain('Not published');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Part',
      'Version',
      'State',
      'Since',
    ]);
  });

  it('speaks the visitor’s language', async () => {
    const { fetch } = gateway({ SystemStatus: [200, STATUS] });
    await renderWithProviders(<DevopsPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch,
      lng: 'de',
    });
    expect(await screen.findByText('Eingeschränkt')).toBeTruthy();
    expect(screen.getByTestId('devops-row-mail').textContent).toContain('Nicht erreichbar');
  });

  it('says so when the status cannot be loaded', async () => {
    const { fetch } = gateway({ SystemStatus: [503, {}] });
    await renderWithProviders(<DevopsPage />, { resources: RESOURCES, defaultNS: 'common', fetch });
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy();
  });
});

describe('error pages with a reference', () => {
  const record: ErrorRecord = {
    errorId: 'ABCDEFGHJKMNPQRS',
    kind: 'signIn',
    messageKey: 'invalidRedirectUri',
    clientName: 'Payroll portal',
    returnUrl: 'https://payroll.example/',
    occurredAt: '2026-11-22T10:00:00.000Z',
    requestId: 'req-1',
  };

  it('shows the message, the reference and the way back to the application', async () => {
    const { fetch } = gateway({ Error: [200, record] });
    await renderWithProviders(<SignInErrorPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch,
      path: `/error/signin?errorId=${record.errorId}`,
    });
    expect((await screen.findByTestId('error-reference-id')).textContent).toBe(record.errorId);
    expect(screen.getByTestId('error-message').textContent).toContain('has not registered');
    expect(screen.getByRole('link', { name: 'Back to Payroll portal' }).getAttribute('href')).toBe(
      'https://payroll.example/',
    );
  });

  it('shows the generic page without a hint for an unknown reference, and asks nothing for a malformed one', async () => {
    const unknown = gateway({});
    const { store } = await renderWithProviders(<SignInErrorPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch: unknown.fetch,
      path: '/error/signin?errorId=0000000000000000',
    });
    await screen.findByText('We could not sign you in. Please try again.');
    // The page asked, and the 404 came back.
    await vi.waitFor(() =>
      expect(
        Object.values(store.getState()[baseApi.reducerPath].queries).some((q) => q?.error !== undefined),
      ).toBe(true),
    );
    expect(unknown.asked.some((a) => a.startsWith('Error?'))).toBe(true);
    expect(screen.queryByTestId('error-reference')).toBeNull();
    expect(document.body.textContent).not.toContain('0000000000000000');
    cleanup();

    const malformed = gateway({ Error: [200, record] });
    await renderWithProviders(<SignInErrorPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch: malformed.fetch,
      path: '/error/signin?errorId=<script>alert(1)</script>',
    });
    await screen.findByText('We could not sign you in. Please try again.');
    expect(malformed.asked.some((a) => a.startsWith('Error'))).toBe(false);
    expect(screen.queryByTestId('error-reference')).toBeNull();
  });

  it("an upstream's refusal (issue 53): which provider failed, the reference, try again or sign in another way", async () => {
    const { fetch } = gateway({
      Error: [200, { ...record, messageKey: 'upstreamFailed', clientName: 'Contoso ID', returnUrl: null }],
    });
    await renderWithProviders(<SignInErrorPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch,
      path: `/error/signin?errorId=${record.errorId}&provider=contoso&returnUrl=%2Faccount%2F`,
    });
    expect((await screen.findByTestId('error-message')).textContent).toBe(
      'Signing in with Contoso ID failed.',
    );
    expect(screen.getByTestId('error-reference-id').textContent).toBe(record.errorId);
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(
      '/account/login/vendor?vendorId=contoso&returnUrl=%2Faccount%2F',
    );
    expect(screen.getByRole('link', { name: 'Sign in another way' }).getAttribute('href')).toBe(
      '/account/login?returnUrl=%2Faccount%2F',
    );
    cleanup();
    // A provider id that is not one (a link someone made up) offers no try-again link.
    await renderWithProviders(<SignInErrorPage />, {
      resources: RESOURCES,
      defaultNS: 'common',
      fetch,
      path: `/error/signin?errorId=${record.errorId}&provider=%3Cscript%3E`,
    });
    await screen.findByTestId('error-message');
    expect(screen.queryByRole('link', { name: 'Try again' })).toBeNull();
  });
});
