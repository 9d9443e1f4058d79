import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_PERMISSIONS, type AuditEventView, type ConsoleAccess } from 'shared-contracts/console';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { AuditPage } from './audit-page';

afterEach(cleanup);

const SUPPORT: ConsoleAccess = {
  grants: [{ role: 'support', partnerId: 'demo', customerId: null }],
  permissions: ['console.people.read', 'console.people.change', 'console.audit.read'],
  secondFactorReady: true,
};

const event = (id: number, subject: string): AuditEventView => ({
  id,
  at: '2026-11-20T10:00:00.000Z',
  kind: 'console.grant.added',
  outcome: 'success',
  actor: 'admin',
  subject,
  reason: 'joined',
  userId: null,
  ip: '192.0.2.1',
  userAgent: null,
  requestId: null,
  partnerId: 'demo',
  customerId: null,
  data: {},
});

async function renderPage(lng = 'en-GB', access: ConsoleAccess = SUPPORT) {
  let days = 180;
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(access),
    AuditRetention: () => Response.json({ days, stored: days !== 180 }),
    SetAuditRetention: ({ body }) => {
      days = (body as { days: number }).days;
      return Response.json({ days, stored: true });
    },
    ConsoleAudit: ({ query }) =>
      Response.json({
        events: query.get('page') === '2' ? [event(1, 'older')] : [event(2, 'newer')],
        page: Number(query.get('page') ?? '1'),
        hasMore: query.get('page') !== '2',
      }),
  });
  const result = await renderWithProviders(<AuditPage />, {
    path: '/admin/audit',
    fetch: gateway.fetch,
    lng,
    resources: { 'en-GB': { 'mfe-admin': enGB }, de: { 'mfe-admin': de } },
  });
  return { calls: gateway.calls, ...result };
}

describe('/admin/audit', () => {
  it('searches by the filter given, pages, and offers the same filter as CSV', async () => {
    const { calls } = await renderPage();
    expect(await screen.findByText('newer')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Actor'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Event kind'), { target: { value: 'console.grant' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.some((c) => c.call === 'ConsoleAudit' && c.query.get('actor') === 'admin')).toBe(true),
    );
    const last = calls.filter((c) => c.call === 'ConsoleAudit').at(-1)!;
    expect(last.query.get('kind')).toBe('console.grant');
    expect(last.query.has('subject')).toBe(false);
    expect(screen.getByTestId('audit-export').getAttribute('href')).toBe(
      '/api/Account/ConsoleAuditExport?actor=admin&kind=console.grant',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('older')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next page' }).disabled).toBe(true);
  });

  it('shows support the retention without a way to change it', async () => {
    await renderPage();
    expect(await screen.findByText('Events are kept for 180 days, then deleted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change the retention' })).toBeNull();
  });

  it('lets a platform administrator change the retention, with a reason', async () => {
    const { calls } = await renderPage('en-GB', {
      grants: [{ role: 'platformAdmin', partnerId: null, customerId: null }],
      permissions: [...CONSOLE_PERMISSIONS],
      secondFactorReady: true,
    });
    fireEvent.change(await screen.findByLabelText('Keep events for (days)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change the retention' }));
    expect(await screen.findByText('Enter a whole number of days from 1 to 3650.')).toBeTruthy();
    expect(await screen.findByText('Say why.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Keep events for (days)'), { target: { value: '90' } });
    fireEvent.change(screen.getByLabelText('Reason (required)'), { target: { value: 'policy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change the retention' }));
    await waitFor(() =>
      expect(screen.getByTestId('audit-retention-result').textContent).toBe(
        'Events are now kept for 90 days.',
      ),
    );
    expect(calls.find((c) => c.call === 'SetAuditRetention')?.body).toEqual({ days: 90, reason: 'policy' });
    await waitFor(() =>
      expect(screen.getByTestId('audit-retention').textContent).toBe(
        'Events are kept for 90 days, then deleted.',
      ),
    );
  });

  it('speaks German', async () => {
    await renderPage('de');
    expect(
      await screen
        .findByRole('button', { name: 'CSV herunterladen' })
        .catch(() => screen.findByText('CSV herunterladen')),
    ).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await screen.findByText('newer');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
