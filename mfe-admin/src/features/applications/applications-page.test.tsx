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
    ConsolePartners: () => Response.json({ partners: [] }),
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
  const dialog = await screen.findByTestId('console-confirm');
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

  it('shows a redirect URI the gateway refuses on its field', async () => {
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
      target: { value: 'https://new.example/callback' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add…' }));
    await confirmWith('', 'Add');
    expect(
      await within(form).findByText('Enter absolute http(s) addresses without a fragment, one per line.'),
    ).toBeTruthy();
  });

  it('refuses a bad redirect URI of an edited application on its field, before any call', async () => {
    const { calls } = await renderPage();
    const row = await screen.findByTestId('application-payroll-portal');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit…' }));
    const form = await screen.findByTestId('edit-application-payroll-portal');
    fireEvent.change(within(form).getByLabelText('Redirect URIs (one per line)'), {
      target: { value: 'https://app.example/callback\nhttps://app.example/cb#fragment' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save…' }));
    expect(
      await within(form).findByText('Enter absolute http(s) addresses without a fragment, one per line.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('console-confirm')).toBeNull();
    expect(calls.some((c) => c.call === 'UpdateApplication')).toBe(false);
  });

  it('refuses a bad back-channel sign-out URI of an edited application on its field, before any call', async () => {
    const { calls } = await renderPage();
    const row = await screen.findByTestId('application-payroll-portal');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit…' }));
    const form = await screen.findByTestId('edit-application-payroll-portal');
    fireEvent.change(within(form).getByLabelText('Back-channel sign-out URI'), {
      target: { value: 'not an address' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save…' }));
    const field = within(form).getByLabelText('Back-channel sign-out URI');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.some((c) => c.call === 'UpdateApplication')).toBe(false);
  });

  it('saves an edited application with its reason, and disables it when unticked', async () => {
    const { calls } = await renderPage({
      UpdateApplication: ({ body }) => Response.json({ ...PORTAL, ...(body as object) }),
    });
    const row = await screen.findByTestId('application-payroll-portal');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit…' }));
    const form = await screen.findByTestId('edit-application-payroll-portal');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Payroll' } });
    fireEvent.change(within(form).getByLabelText('Redirect URIs after sign-out (one per line)'), {
      target: { value: 'https://app.example/bye' },
    });
    fireEvent.change(within(form).getByLabelText('Back-channel sign-out URI'), {
      target: { value: 'https://app.example/backchannel' },
    });
    fireEvent.click(within(form).getByLabelText('First-party application: people are not asked to consent'));
    fireEvent.click(within(form).getByLabelText('Enabled: it can sign people in'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save…' }));
    await confirmWith('renamed', 'Save');
    await waitFor(() => expect(screen.getByTestId('applications-saved').textContent).toBe('Payroll saved.'));
    expect(calls.find((c) => c.call === 'UpdateApplication')?.body).toEqual({
      clientId: 'payroll-portal',
      name: 'Payroll',
      redirectUris: ['https://app.example/callback'],
      postLogoutRedirectUris: ['https://app.example/bye'],
      backchannelLogoutUri: 'https://app.example/backchannel',
      initiateLoginUri: null,
      firstParty: !PORTAL.firstParty,
      reason: 'renamed',
    });
    expect(calls.find((c) => c.call === 'DisableApplication')?.body).toEqual({
      clientId: 'payroll-portal',
      disabled: true,
      reason: 'renamed',
    });
    expect(screen.queryByTestId('edit-application-payroll-portal')).toBeNull();
  });

  it('shows a failed discovery of a new upstream provider on its issuer', async () => {
    const { calls } = await renderPage({
      CreateUpstream: () =>
        Response.json(
          {
            title: 'One or more validation errors occurred.',
            errors: { issuer: ['upstreamDiscoveryFailed|{"detail":"404 Not Found"}'] },
          },
          { status: 400 },
        ),
    });
    const form = await screen.findByTestId('new-upstream');
    const type = (label: string, value: string) =>
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    type('Provider ID (part of its callback address)', 'acme-id');
    type('Name', 'Acme ID');
    type('Issuer', 'https://wrong.example');
    type('Client ID at the provider', 'hr');
    type('Client secret', 's3cret');
    fireEvent.change(within(form).getByLabelText('Token endpoint authentication'), {
      target: { value: 'private_key_jwt' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add…' }));
    await confirmWith('', 'Add');
    const issuer = within(form).getByLabelText('Issuer');
    await waitFor(() => expect(issuer.getAttribute('aria-invalid')).toBe('true'));
    const errors = document.getElementById(issuer.getAttribute('aria-describedby') ?? '');
    expect(errors?.textContent).toBe("The provider's discovery document could not be read: 404 Not Found");
    expect(calls.find((c) => c.call === 'CreateUpstream')?.body).toMatchObject({
      id: 'acme-id',
      issuer: 'https://wrong.example',
      clientSecret: 's3cret',
      scopes: 'openid profile email',
      partnerId: null,
      vendor: false,
      roles: [],
      tokenAuthMethod: 'private_key_jwt',
    });
  });

  it('edits an upstream provider: only what changed is sent, the secret stays unless typed', async () => {
    const { calls } = await renderPage({
      ConsoleUpstreams: () => Response.json({ upstreams: [{ ...CONTOSO, tokenAuthMethodInUse: null }] }),
      UpdateUpstream: () => Response.json(CONTOSO),
    });
    const row = await screen.findByTestId('upstream-contoso');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit…' }));
    const form = await screen.findByTestId('edit-upstream-contoso');
    expect(within(form).getByTestId('upstream-method-in-use').textContent).toBe(
      'In use: not discovered yet.',
    );
    expect(within(form).getByTestId('upstream-jwks-uri').textContent).toBe(
      'https://identity.example/signin/contoso/jwks',
    );
    fireEvent.change(within(form).getByLabelText('Button label'), { target: { value: 'Contoso staff' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save…' }));
    await confirmWith('clearer button', 'Save');
    await waitFor(() =>
      expect(screen.getByTestId('applications-saved').textContent).toBe('Contoso Support saved.'),
    );
    expect(calls.find((c) => c.call === 'UpdateUpstream')?.body).toEqual({
      id: 'contoso',
      buttonLabel: 'Contoso staff',
      reason: 'clearer button',
    });
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
