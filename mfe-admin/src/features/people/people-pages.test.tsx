import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleAccess, ConsolePeople, ConsolePerson } from 'shared-contracts/console';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { PeoplePage } from './people-page';
import { PersonPage } from './person-page';

afterEach(cleanup);

const plain = (element: Element) => (element.textContent ?? '').replace(/[\u2068\u2069]/g, '');

const SUPPORT: ConsoleAccess = {
  grants: [{ role: 'support', partnerId: 'demo', customerId: null }],
  permissions: ['console.people.read', 'console.people.change', 'console.audit.read'],
  secondFactorReady: true,
};

const PEOPLE: ConsolePeople = {
  people: [
    {
      id: 'u1',
      username: 'authenticator',
      displayName: 'Alex Authenticator',
      email: 'authenticator@example.test',
      disabled: false,
      customers: [{ id: 'acme-retail', name: 'Acme Retail' }],
    },
  ],
  total: 1,
  page: 1,
  pageSize: 20,
};

function person(disabled: boolean): ConsolePerson {
  return {
    id: 'u1',
    username: 'authenticator',
    displayName: 'Alex Authenticator',
    email: 'authenticator@example.test',
    account: {
      disabled,
      passwordChangedAt: '2026-11-01T10:00:00.000Z',
      mustChangePassword: false,
      twoStepRequired: false,
      vendor: false,
    },
    signInMethods: ['password', 'authenticator'],
    passkeys: [],
    sessions: [
      {
        createdAt: '2026-11-27T09:00:00.000Z',
        lastSeenAt: '2026-11-27T09:30:00.000Z',
        network: { kind: 'network', prefix: '203.0.113.x' },
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
      {
        createdAt: '2026-11-27T08:00:00.000Z',
        lastSeenAt: '2026-11-27T08:30:00.000Z',
        network: { kind: 'network', prefix: '203.0.113.x' },
        userAgent: 'curl/8.0',
      },
    ],
    rememberedBrowsers: [],
    linkedAccounts: [],
    customers: [{ id: 'acme-retail', name: 'Acme Retail', roles: ['EMPLOYEE'], canChange: true }],
    recentEvents: [
      { at: '2026-11-27T09:00:00.000Z', kind: 'sign-in.password' },
      { at: '2026-11-27T08:00:00.000Z', kind: 'sign-in.some-new-kind' },
    ],
  };
}

async function renderPerson(answers: StubAnswers = {}, lng = 'en-GB') {
  const gateway = stubGateway({
    ConsoleAccess: () => Response.json(SUPPORT),
    ConsolePerson: () => Response.json(person(false)),
    ConsolePeople: () => Response.json(PEOPLE),
    ...answers,
  });
  const result = await renderWithProviders(<PersonPage />, {
    path: '/admin/person?id=u1',
    fetch: gateway.fetch,
    lng,
    resources: { 'en-GB': { 'mfe-admin': enGB }, de: { 'mfe-admin': de } },
  });
  return { calls: gateway.calls, ...result };
}

describe('/admin/people', () => {
  it('searches and lists the people found, each linking to their page; People is in the navigation', async () => {
    const gateway = stubGateway({
      ConsoleAccess: () => Response.json(SUPPORT),
      ConsolePeople: () => Response.json(PEOPLE),
    });
    await renderWithProviders(<PeoplePage />, {
      path: '/admin/people',
      fetch: gateway.fetch,
      lng: 'en-GB',
      resources: { 'en-GB': { 'mfe-admin': enGB } },
    });
    const row = await screen.findByTestId('person-row-authenticator');
    expect(within(row).getByRole('link').getAttribute('href')).toBe('/admin/person?id=u1');
    expect(screen.getByTestId('people-count').textContent).toBe('1 person found');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'retail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    await waitFor(() =>
      expect(gateway.calls.some((c) => c.call === 'ConsolePeople' && c.query.get('query') === 'retail')).toBe(
        true,
      ),
    );
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
      // Support's grant: the people of its partner and their audit (ROLE_PERMISSIONS), nothing else.
    ).toEqual(['People', 'Audit']);
  });
});

describe('/admin/person', () => {
  it('shows the account, ways in by kind, sessions by network, customers and recent sign-ins', async () => {
    await renderPerson();
    const page = await screen.findByTestId('person');
    expect(plain(page)).toContain('Authenticator app');
    expect(plain(page)).toContain('Network 203.0.113.x');
    expect(plain(page)).toContain('Acme Retail: Employee');
    // Sessions and events in words (the browser as the security centre names it), the code kept beside an event.
    expect(plain(page)).toContain('Firefox on Linux');
    expect(plain(page)).toContain('curl/8.0');
    expect(plain(page)).toContain('Password accepted sign-in.password');
    // A kind the page has no words for yet: its code.
    expect(plain(page)).toContain('sign-in.some-new-kind sign-in.some-new-kind');
    expect(screen.getByTestId('person-state').textContent).toBe('Active');
  });

  it('disables only once confirmed with a reason, then says so and shows the new state', async () => {
    let disabled = false;
    const { calls } = await renderPerson({
      ConsolePerson: () => Response.json(person(disabled)),
      DisablePerson: () => {
        disabled = true;
        return Response.json(person(true));
      },
    });
    fireEvent.click(await screen.findByTestId('person-action-DisablePerson'));
    const dialog = screen.getByRole('dialog', { name: 'Disable this account?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeTruthy();
    expect(calls.some((c) => c.call === 'DisablePerson')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Left the company' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = calls.find((c) => c.call === 'DisablePerson');
    expect(call?.body).toEqual({ id: 'u1', reason: 'Left the company' });
    expect(plain(screen.getByTestId('person-result'))).toBe(
      'Alex Authenticator’s account is disabled and signed out everywhere.',
    );
    await waitFor(() => expect(screen.getByTestId('person-state').textContent).toBe('Disabled'));
    expect(screen.getByTestId('person-action-EnablePerson')).toBeTruthy();
  });

  it('says a person outside the caller’s reach (403) is not theirs, and an unknown one (404) is not found', async () => {
    await renderPerson({
      ConsolePerson: () => Response.json({ errors: { '': ['forbidden'] } }, { status: 403 }),
    });
    expect((await screen.findByTestId('person-missing')).textContent).toBe(
      'This person is not among the people you help: you can neither see nor change their account.',
    );
    cleanup();
    await renderPerson({
      ConsolePerson: () => Response.json({ errors: { '': ['notFound'] } }, { status: 404 }),
    });
    expect((await screen.findByTestId('person-missing')).textContent).toBe(
      'No such person among the people you help.',
    );
  });

  it('suggests the customers named like what is typed when adding a membership', async () => {
    const { calls } = await renderPerson();
    await screen.findByTestId('person');
    fireEvent.click(screen.getByTestId('person-action-AddPersonMembership'));
    const field = screen.getByTestId('membership-customer');
    fireEvent.change(field, { target: { value: 'reta' } });
    const list = document.getElementById(field.getAttribute('list') ?? '');
    await waitFor(() => expect(list?.querySelector('option')?.getAttribute('value')).toBe('acme-retail'));
    expect(list?.querySelector('option')?.getAttribute('label')).toBe('Acme Retail');
    expect(calls.find((c) => c.call === 'ConsolePeople')?.query.get('query')).toBe('reta');
    fireEvent.change(field, { target: { value: 'logis' } });
    await waitFor(() => expect(calls.filter((c) => c.call === 'ConsolePeople')).toHaveLength(2));
    await waitFor(() => expect(list?.querySelectorAll('option')).toHaveLength(0));
  });

  it('speaks German', async () => {
    await renderPerson({}, 'de');
    expect(await screen.findByRole('button', { name: 'Konto deaktivieren' })).toBeTruthy();
  });

  it('has no accessibility violations axe can find in a DOM', async () => {
    const { container } = await renderPerson();
    await screen.findByTestId('person');
    fireEvent.click(screen.getByTestId('person-action-AddPersonMembership'));
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
