import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLocation } from 'react-router';
import { registerNavigator } from 'shared-contracts/api';
import { renderWithProviders, stubGateway, type StubCall } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import de from '../../locales/de.json';
import { SelectCustomerPage } from './select-customer-page';

// A loaded 2-core machine answers slowly; the page's own timings (300 ms, 200 ms) are well inside this.

afterEach(() => {
  cleanup();
  registerNavigator(undefined);
});

const ALL = Array.from({ length: 12 }, (_, i) => ({
  id: `c${i + 1}`,
  name: `Customer ${String(i + 1).padStart(2, '0')}`,
}));

/** The Customers call over {@link ALL}: filter by name, then page. */
function customers({ query }: StubCall): Response {
  const filter = (query.get('filter') ?? '').toLowerCase();
  const page = Number(query.get('page') ?? '1');
  const size = Number(query.get('size') ?? '5');
  const matching = ALL.filter((c) => c.name.toLowerCase().includes(filter));
  return Response.json({
    customers: matching.slice((page - 1) * size, page * size),
    total: matching.length,
    page,
    size,
  });
}

const view =
  (preselected: { id: string; name: string } | null = null) =>
  () =>
    Response.json({ preselected, total: ALL.length, returnUrl: '/portal' });

/** Shows the address the page keeps, so the tests can read filter and page. */
function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

async function renderPage(
  gateway: ReturnType<typeof stubGateway>,
  path = '/account/select?returnUrl=%2Fportal',
  lng = 'en-GB',
) {
  return renderWithProviders(
    <>
      <SelectCustomerPage />
      <Location />
    </>,
    {
      path,
      lng,
      fetch: gateway.fetch,
      resources: { 'en-GB': { 'mfe-tenant': enGB }, de: { 'mfe-tenant': de } },
    },
  );
}

const optionNames = () => screen.queryAllByRole('option').map((option) => option.textContent);

describe('SelectCustomerPage', () => {
  it('lists the first page of customers from Customers, with the count', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway);
    expect(await screen.findByRole('option', { name: 'Customer 01' })).toBeTruthy();
    expect(optionNames()).toEqual([
      'Customer 01',
      'Customer 02',
      'Customer 03',
      'Customer 04',
      'Customer 05',
    ]);
    expect(screen.getByTestId('customers-status').textContent).toBe('Showing 1–5 of 12');
    expect(screen.getByRole('combobox', { name: 'Search customers' })).toBeTruthy();
    expect(screen.getByRole('listbox', { name: 'Customers' })).toBeTruthy();
    const call = gateway.calls.find((c) => c.call === 'Customers')!;
    expect(call.query.get('page')).toBe('1');
    expect(call.query.get('size')).toBe('5');
    expect(call.query.has('filter')).toBe(false);
  });

  it('filters as the user types, once typing settles, and keeps the filter in the address', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway);
    await screen.findByRole('option', { name: 'Customer 01' });
    const input = screen.getByRole('combobox', { name: 'Search customers' });
    fireEvent.change(input, { target: { value: '1' } });
    fireEvent.change(input, { target: { value: '11' } });
    await waitFor(() => expect(optionNames()).toEqual(['Customer 11']));
    const filters = gateway.calls.filter((c) => c.call === 'Customers').map((c) => c.query.get('filter'));
    // Debounced: the half-typed "1" was never sent.
    expect(filters).toEqual([null, '11']);
    expect(screen.getByTestId('customers-status').textContent).toBe('Showing 1–1 of 1');
    expect(screen.getByTestId('location').textContent).toContain('filter=11');
    expect((input as HTMLInputElement).value).toBe('11');
  });

  it('pages with next and previous, keeping the page in the address', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway);
    await screen.findByRole('option', { name: 'Customer 01' });
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    const previous = within(pages).getByRole('button', { name: 'Previous' });
    const next = within(pages).getByRole('button', { name: 'Next' });
    expect(previous.hasAttribute('disabled')).toBe(true);
    expect(within(pages).getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(next);
    await screen.findByRole('option', { name: 'Customer 06' });
    expect(screen.getByTestId('customers-status').textContent).toBe('Showing 6–10 of 12');
    expect(within(pages).getByText('Page 2 of 3')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toContain('page=2');
    fireEvent.click(next);
    await screen.findByRole('option', { name: 'Customer 11' });
    expect(screen.getByTestId('customers-status').textContent).toBe('Showing 11–12 of 12');
    expect(within(pages).getByText('Page 3 of 3')).toBeTruthy();
    expect(next.hasAttribute('disabled')).toBe(true);
    fireEvent.click(previous);
    await screen.findByRole('option', { name: 'Customer 06' });
  });

  it('keeps the paging controls apart from the options: a "Pages" landmark below the list, secondary buttons', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway);
    await screen.findByRole('option', { name: 'Customer 01' });
    const list = screen.getByRole('listbox', { name: 'Customers' });
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    // Not among the options, and after the list in reading order.
    expect(within(list).queryByRole('button')).toBeNull();
    expect(within(pages).queryByRole('option')).toBeNull();
    expect(list.compareDocumentPosition(pages) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    for (const button of within(pages).getAllByRole('button')) {
      expect(button.className).toContain('hr-button--secondary');
      expect(button.className).not.toContain('hr-button--primary');
    }
    // The page number is announced as it changes.
    const current = within(pages).getByText('Page 1 of 3');
    expect(current.getAttribute('aria-live')).toBe('polite');
    // Its layout is a flex row with logical properties only, so right-to-left mirrors it.
    expect(pages.getAttribute('style')).toMatch(/border-block-start/);
    expect(pages.getAttribute('style')).not.toMatch(/left|right/);
  });

  it('moves focus to Previous when Next reaches the last page (a disabled button would drop it)', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway, '/account/select?returnUrl=%2Fportal&page=2');
    await screen.findByRole('option', { name: 'Customer 06' });
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    const next = within(pages).getByRole('button', { name: 'Next' });
    next.focus();
    fireEvent.click(next);
    await screen.findByRole('option', { name: 'Customer 11' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(pages).getByRole('button', { name: 'Previous' })),
    );
    fireEvent.click(within(pages).getByRole('button', { name: 'Previous' }));
    await screen.findByRole('option', { name: 'Customer 06' });
    // A middle page leaves focus where it is.
    expect(document.activeElement).toBe(within(pages).getByRole('button', { name: 'Previous' }));
  });

  it('shows no paging controls when one page holds every match', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway, '/account/select?returnUrl=%2Fportal&filter=customer%201');
    await screen.findByRole('option', { name: 'Customer 10' });
    expect(screen.getByTestId('customers-status').textContent).toBe('Showing 1–3 of 3');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous' })).toBeNull();
  });

  it('starts from the filter and page in the address (reload, Back)', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway, '/account/select?returnUrl=%2Fportal&filter=customer&page=3');
    await screen.findByRole('option', { name: 'Customer 11' });
    expect(screen.getByRole<HTMLInputElement>('combobox').value).toBe('customer');
    const call = gateway.calls.find((c) => c.call === 'Customers')!;
    expect([call.query.get('filter'), call.query.get('page')]).toEqual(['customer', '3']);
  });

  it('says so when no customer matches', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway, '/account/select?filter=nobody');
    expect(await screen.findByText('No customer found.')).toBeTruthy();
    expect(optionNames()).toEqual([]);
  });

  it('shows "Loading customers…" only for a slow search', async () => {
    let release: () => void = () => undefined;
    const gateway = stubGateway({
      SelectCustomerView: view(),
      Customers: (call) =>
        new Promise<Response>((resolve) => {
          release = () => resolve(customers(call));
        }),
    });
    await renderPage(gateway);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByText('Loading customers…')).toBeNull();
    expect(await screen.findByText('Loading customers…')).toBeTruthy();
    release();
    await screen.findByRole('option', { name: 'Customer 01' });
    expect(screen.queryByText('Loading customers…')).toBeNull();
  });

  it('offers the cid customer first, highlighted, and Enter chooses it', async () => {
    const gateway = stubGateway({
      SelectCustomerView: view({ id: 'c9', name: 'Customer 09' }),
      Customers: customers,
      SelectCustomer: () => Response.json({ redirect: '/portal', state: 's' }, { status: 209 }),
    });
    const visited: string[] = [];
    registerNavigator((path) => {
      visited.push(path);
    });
    await renderPage(gateway, '/account/select?returnUrl=%2Fportal&cid=c9');
    await screen.findByRole('option', { name: /Customer 01/ });
    await waitFor(() => expect(optionNames()[0]).toBe('Customer 09 (suggested)'));
    expect(gateway.calls.find((c) => c.call === 'SelectCustomerView')!.query.get('cid')).toBe('c9');
    const first = screen.getAllByRole('option')[0]!;
    expect(first.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Enter' });
    await waitFor(() => expect(gateway.calls.some((c) => c.call === 'SelectCustomer')).toBe(true));
    expect(gateway.calls.find((c) => c.call === 'SelectCustomer')!.body).toEqual({
      customerId: 'c9',
      returnUrl: '/portal',
    });
  });

  it('moves through the list with the arrow keys and Enter chooses the highlighted one', async () => {
    const gateway = stubGateway({
      SelectCustomerView: view(),
      Customers: customers,
      SelectCustomer: () => Response.json({ redirect: '/portal', state: 's' }, { status: 209 }),
    });
    registerNavigator(() => undefined);
    await renderPage(gateway);
    await screen.findByRole('option', { name: 'Customer 01' });
    const input = screen.getByRole('combobox');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    const active = screen.getByRole('option', { name: 'Customer 02' });
    expect(active.getAttribute('aria-selected')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(active.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(gateway.calls.find((c) => c.call === 'SelectCustomer')?.body).toEqual({
        customerId: 'c2',
        returnUrl: '/portal',
      }),
    );
  });

  it('is translated', async () => {
    const gateway = stubGateway({ SelectCustomerView: view(), Customers: customers });
    await renderPage(gateway, '/account/select?filter=nobody', 'de');
    expect(await screen.findByText('Kein Kunde gefunden.')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Kunden suchen' })).toBeTruthy();
    cleanup();
    await renderPage(
      stubGateway({ SelectCustomerView: view(), Customers: customers }),
      '/account/select',
      'de',
    );
    const pages = await screen.findByRole('navigation', { name: 'Seiten' });
    expect(within(pages).getByText('Seite 1 von 3')).toBeTruthy();
    expect(within(pages).getByRole('button', { name: 'Weiter' })).toBeTruthy();
  });
});
