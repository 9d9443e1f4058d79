import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_PERMISSIONS, type ConsoleAccess } from 'shared-contracts/console';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { ImportPage } from './import-page';

afterEach(cleanup);

const PLATFORM_ADMIN: ConsoleAccess = {
  grants: [{ role: 'platformAdmin', partnerId: null, customerId: null }],
  permissions: [...CONSOLE_PERMISSIONS],
  secondFactorReady: true,
};

async function renderPage() {
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(PLATFORM_ADMIN),
    ImportCustomers: ({ body }) =>
      (body as { csv: string }).csv.includes('bad')
        ? Response.json(
            {
              title: 'x',
              detail: 'x',
              errors: {
                csv: [
                  'importUnknownPartner|{"row":3,"partner":"nowhere"}',
                  'importUnknownUser|{"row":4,"username":"ghost"}',
                  'importUnknownRole|{"row":4,"role":"KING"}',
                ],
              },
            },
            { status: 400 },
          )
        : Response.json({ customers: 2, memberships: 1 }),
  });
  const result = await renderWithProviders(<ImportPage />, {
    path: '/admin/import',
    fetch: gateway.fetch,
    lng: 'en-GB',
    resources: { 'en-GB': { 'mfe-admin': enGB } },
  });
  return { calls: gateway.calls, ...result };
}

describe('/admin/import', () => {
  it('lists every bad row with its number, then imports a good file', async () => {
    const { calls } = await renderPage();
    const csv = await screen.findByLabelText('CSV text');
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Choose a file or paste the CSV.')).toBeTruthy();
    expect(calls.some((c) => c.call === 'ImportCustomers')).toBe(false);
    fireEvent.change(csv, { target: { value: 'id,name,partner\nbad,Bad,nowhere' } });
    fireEvent.change(screen.getByLabelText('Reason (required)'), { target: { value: 'onboarding' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const bad = await screen.findByTestId('import-bad-rows');
    expect(within(bad).getByText('2 rows are wrong; nothing was imported:')).toBeTruthy();
    expect(
      within(bad)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Row 3: there is no partner "nowhere".',
      'Row 4: there is no user "ghost".',
      'Row 4: unknown role "KING" (1–7, or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN).',
    ]);
    fireEvent.change(csv, { target: { value: 'id,name,partner\ngood,Good,demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() =>
      expect(screen.getByTestId('import-result').textContent).toBe('Imported 2 customers and 1 membership.'),
    );
    expect(screen.queryByTestId('import-bad-rows')).toBeNull();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await screen.findByLabelText('CSV text');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
