import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Application, ConsoleAccess, Upstream } from 'shared-contracts/console';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { ApplicationsPage } from './applications-page';

afterEach(cleanup);

const PLATFORM_ADMIN: ConsoleAccess = {
  grants: [{ role: 'platformAdmin', partnerId: null, customerId: null }],
  permissions: ['console.applications.read', 'console.applications.change'],
  secondFactorReady: true,
};

const PORTAL: Application = {
  clientId: 'payroll-portal',
  name: 'Payroll portal',
  confidential: true,
  redirectUris: ['https://app.example/callback'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  initiateLoginUri: null,
  firstParty: true,
  disabled: false,
};

const CONTOSO: Upstream = {
  id: 'contoso',
  name: 'Contoso Support',
  issuer: 'https://id.contoso.example',
  clientId: 'hr-identity',
  scopes: 'openid profile email',
  partnerId: null,
  vendor: true,
  roles: ['VENDOR_SUPPORT'],
  buttonLabel: null,
  trustUpstreamMfa: false,
  disabled: false,
  tokenAuthMethod: null,
  tokenAuthMethodInUse: 'client_secret_basic',
  jwksUri: 'https://identity.example/signin/contoso/jwks',
};

async function renderPage(answers: StubAnswers = {}) {
  let portal = PORTAL;
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(PLATFORM_ADMIN),
    ConsoleApplications: () => Response.json({ applications: [portal] }),
    ConsoleUpstreams: () => Response.json({ upstreams: [CONTOSO] }),
    RotateApplicationSecret: () =>
      Response.json({ application: portal, clientSecret: 'new-secret-shown-once' }),
    DisableApplication: ({ body }) => {
      portal = { ...portal, disabled: (body as { disabled: boolean }).disabled };
      return Response.json(portal);
    },
    ...answers,
  });
  const result = await renderWithProviders(<ApplicationsPage />, {
    path: '/admin/applications',
    fetch: gateway.fetch,
    lng: 'en-GB',
    resources: { 'en-GB': { 'mfe-admin': enGB } },
  });
  return { calls: gateway.calls, ...result };
}

const confirmWith = async (reason: string, button: string) => {
  const dialog = await screen.findByTestId('application-dialog');
  fireEvent.change(within(dialog).getByLabelText('Reason (optional, recorded in the history)'), {
    target: { value: reason },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: button }));
};

describe('/admin/applications', () => {
  it('rotates a secret once confirmed and shows the new one once, beside the application', async () => {
    const { calls } = await renderPage();
    const row = await screen.findByTestId('application-payroll-portal');
    fireEvent.click(within(row).getByRole('button', { name: 'Rotate secret…' }));
    await confirmWith('leaked', 'Rotate');
    expect((await within(row).findByTestId('application-secret')).textContent).toBe('new-secret-shown-once');
    expect(within(row).getByTestId('application-payroll-portal-result').textContent).toBe(
      'The secret of Payroll portal was rotated; the old one no longer works.',
    );
    expect(calls.find((c) => c.call === 'RotateApplicationSecret')?.body).toEqual({
      clientId: 'payroll-portal',
      reason: 'leaked',
    });
  });

  it('disables an application and shows its new state without a reload', async () => {
    await renderPage();
    const row = await screen.findByTestId('application-payroll-portal');
    fireEvent.click(within(row).getByRole('button', { name: 'Disable…' }));
    await confirmWith('contract ended', 'Disable');
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeTruthy());
    expect(within(row).getByRole('button', { name: 'Enable…' })).toBeTruthy();
  });

  it('shows a refused redirect URI on its field', async () => {
    await renderPage({
      CreateApplication: () =>
        Response.json(
          {
            title: 'One or more validation errors occurred.',
            errors: { redirectUris: ['applicationRedirectUri'] },
          },
          { status: 400 },
        ),
    });
    const form = await screen.findByTestId('new-application');
    fireEvent.change(within(form).getByLabelText('Client ID'), { target: { value: 'new-app' } });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'New app' } });
    fireEvent.change(within(form).getByLabelText('Redirect URIs (one per line)'), {
      target: { value: 'javascript:alert(1)' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add…' }));
    await confirmWith('', 'Add');
    expect(
      await within(form).findByText('Enter absolute http(s) addresses without a fragment, one per line.'),
    ).toBeTruthy();
  });

  it('lists the upstream providers', async () => {
    await renderPage();
    const row = await screen.findByTestId('upstream-contoso');
    expect(within(row).getByText('https://id.contoso.example')).toBeTruthy();
    expect(within(row).getByText('Vendor provider')).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await screen.findByTestId('upstream-contoso');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
