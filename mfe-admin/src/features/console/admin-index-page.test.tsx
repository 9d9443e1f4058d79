import { cleanup, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleAccess } from 'shared-contracts/console';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { AdminIndexPage } from './admin-index-page';
import { pagesFor } from '../shared/console-pages';

afterEach(cleanup);

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

async function renderIndex(access: ConsoleAccess) {
  const gateway = stubGateway({ ConsoleAccess: () => Response.json(access) });
  await renderWithProviders(
    <>
      <AdminIndexPage />
      <Where />
    </>,
    { path: '/admin', fetch: gateway.fetch, resources: { 'en-GB': { 'mfe-admin': enGB } } },
  );
}

describe('/admin', () => {
  it('goes to the first console page the caller may see: Releases for a release manager', async () => {
    await renderIndex({
      grants: [{ role: 'releaseManager', partnerId: null, customerId: null }],
      permissions: ['console.releases.read', 'console.releases.change'],
      secondFactorReady: true,
    });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/releases'));
  });

  it('says "no access" to an account without console permissions, and stays', async () => {
    await renderIndex({ grants: [], permissions: [], secondFactorReady: false });
    expect(await screen.findByRole('heading', { name: 'You don’t have access to the console' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/admin');
  });

  it('builds the navigation from the permissions only', () => {
    expect(pagesFor([]).map((p) => p.path)).toEqual([]);
    expect(pagesFor(['console.releases.change']).map((p) => p.path)).toEqual([]);
    expect(pagesFor(['console.releases.read']).map((p) => p.path)).toEqual(['/admin/releases']);
  });
});
