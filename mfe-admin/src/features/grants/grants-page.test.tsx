import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONSOLE_PERMISSIONS,
  type ConsoleAccess,
  type ConsoleGrants,
  type ListedGrant,
} from 'shared-contracts/console';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { GrantsPage } from './grants-page';

afterEach(cleanup);

const plain = (element: Element) => (element.textContent ?? '').replace(/[\u2068\u2069]/g, '');

const PLATFORM_ADMIN: ConsoleAccess = {
  grants: [{ role: 'platformAdmin', partnerId: null, customerId: null }],
  permissions: [...CONSOLE_PERMISSIONS],
  secondFactorReady: true,
};

const grant = (
  username: string,
  role: ListedGrant['role'],
  partnerId: string | null = null,
): ListedGrant => ({
  username,
  role,
  partnerId,
  customerId: null,
  grantedBy: 'cli:ops',
  grantedAt: '2026-11-20T10:00:00.000Z',
});

async function renderPage(answers: StubAnswers = {}, lng = 'en-GB') {
  let grants: ListedGrant[] = [grant('admin', 'platformAdmin'), grant('helper', 'support', 'demo')];
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(PLATFORM_ADMIN),
    ConsoleGrants: () => Response.json({ grants } satisfies ConsoleGrants),
    ConsolePeople: () => Response.json({ people: [], total: 0, page: 1, pageSize: 20 }),
    GrantConsoleRole: ({ body }) => {
      const b = body as { username: string; role: ListedGrant['role']; partnerId: string | null };
      grants = [...grants, grant(b.username, b.role, b.partnerId)];
      return Response.json({ grants });
    },
    WithdrawConsoleRole: ({ body }) => {
      const b = body as { username: string; role: string };
      if (b.role === 'platformAdmin')
        return Response.json(
          { title: 'x', detail: 'x', errors: { role: ['grantLastPlatformAdmin'] } },
          { status: 409 },
        );
      grants = grants.filter((g) => !(g.username === b.username && g.role === b.role));
      return Response.json({ grants });
    },
    ...answers,
  });
  const result = await renderWithProviders(<GrantsPage />, {
    path: '/admin/grants',
    fetch: gateway.fetch,
    lng,
    resources: { 'en-GB': { 'mfe-admin': enGB }, de: { 'mfe-admin': de } },
  });
  return { calls: gateway.calls, ...result };
}

describe('/admin/grants', () => {
  it('lists every grant with where it applies and who gave it', async () => {
    await renderPage();
    await waitFor(() => expect(screen.getAllByTestId('grant-row')).toHaveLength(2));
    const rows = screen.getAllByTestId('grant-row').map(plain);
    expect(rows[0]).toContain('Platform administrator');
    expect(rows[0]).toContain('everywhere');
    expect(rows[1]).toContain('partner demo');
    expect(rows[1]).toContain('cli:ops');
  });

  it('suggests usernames from the people search as one types', async () => {
    const { calls } = await renderPage({
      ConsolePeople: () =>
        Response.json({
          people: [
            {
              id: 'u9',
              username: 'newbie',
              displayName: 'Nina Newbie',
              email: 'n@example.test',
              disabled: false,
              customers: [],
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Grant a role' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a console role' });
    const field = within(dialog).getByLabelText('Username');
    fireEvent.change(field, { target: { value: 'n' } });
    fireEvent.change(field, { target: { value: 'new' } });
    const list = document.getElementById(field.getAttribute('list') ?? '');
    await waitFor(() => expect(list?.querySelector('option')?.getAttribute('value')).toBe('newbie'));
    expect(list?.querySelector('option')?.getAttribute('label')).toBe('Nina Newbie');
    // One call for the pause, none for a single character.
    expect(calls.filter((c) => c.call === 'ConsolePeople').map((c) => c.query.get('query'))).toEqual(['new']);
  });

  it('grants a role only with a reason, says so beside the list and shows it without a reload', async () => {
    const { calls } = await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Grant a role' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a console role' });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'newbie' } });
    fireEvent.change(within(dialog).getByLabelText('Partner ID'), { target: { value: 'demo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await within(dialog).findByText('Say why.')).toBeTruthy();
    expect(calls.some((c) => c.call === 'GrantConsoleRole')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason (required)'), { target: { value: 'joined' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    await waitFor(() =>
      expect(plain(screen.getByTestId('grants-result'))).toBe('newbie is now Support (partner demo).'),
    );
    expect(calls.find((c) => c.call === 'GrantConsoleRole')?.body).toEqual({
      username: 'newbie',
      role: 'support',
      partnerId: 'demo',
      customerId: null,
      reason: 'joined',
    });
    await waitFor(() => expect(screen.getAllByTestId('grant-row')).toHaveLength(3));
  });

  it("shows the service's refusal in the dialog: the last platform administrator stays", async () => {
    await renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Withdraw Platform administrator (everywhere) from admin' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Withdraw a console role' });
    fireEvent.change(within(dialog).getByLabelText('Reason (required)'), { target: { value: 'leaving' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(
      await within(dialog).findByText('This is the last platform administrator: grant another one first.'),
    ).toBeTruthy();
    expect(screen.getAllByTestId('grant-row')).toHaveLength(2);
  });

  it('speaks German', async () => {
    await renderPage({}, 'de');
    expect(await screen.findByRole('button', { name: 'Rolle vergeben' })).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPage();
    await waitFor(() => expect(screen.getAllByTestId('grant-row')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Grant a role' }));
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
