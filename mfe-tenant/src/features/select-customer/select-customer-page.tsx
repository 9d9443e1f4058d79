import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  CUSTOMER_FILTER_MAX,
  CUSTOMER_PAGE_MAX,
  CUSTOMER_PAGE_SIZE_DEFAULT,
  CUSTOMER_PAGE_SIZE_MAX,
  returnUrlOf,
  type CustomerSummary,
  withReturnUrl,
} from 'shared-contracts';
import { isRedirectFollowed, useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Page, Stack, TextField } from 'shared-contracts/ui';
import {
  useCustomersQuery,
  useSelectCustomerMutation,
  useSelectCustomerViewQuery,
} from './select-customer.api';
import { useDelayedFlag } from './timing';

const NS = 'mfe-tenant';
/** Typing settles this long before the search is sent (and written to the address). */
export const SEARCH_DEBOUNCE_MS = 300;
/** A search quicker than this shows no loading message at all (no flash). */
export const LOADING_DELAY_MS = 200;

/** A whole number of the address within bounds, else the fallback (the page never sends a value the server refuses). */
function wholeParam(value: string | null, min: number, max: number, fallback: number): number {
  if (!value || !/^[0-9]{1,12}$/.test(value)) return fallback;
  const n = Number(value);
  return n < min || n > max ? fallback : n;
}

/**
 * `/account/select` (SPEC.md §2 "Customer selection", §7 "Customers"; ADR 0009): search the user's customers,
 * page through them and choose one. The search text and page live in the address (replaced, not pushed), so a
 * reload or Back shows the same list; the customer named by `cid` (or chosen before) is offered first.
 */
export function SelectCustomerPage() {
  const { t } = useTranslation(NS);
  const [search, setSearch] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const cid = search.get('cid') ?? undefined;
  const filter = search.get('filter') ?? '';
  const page = wholeParam(search.get('page'), 1, CUSTOMER_PAGE_MAX, 1);
  const size = wholeParam(search.get('size'), 1, CUSTOMER_PAGE_SIZE_MAX, CUSTOMER_PAGE_SIZE_DEFAULT);

  // What is typed but not yet searched; null once the address holds it (then the address is the truth).
  const [typed, setTyped] = useState<string | null>(null);
  const text = typed ?? filter;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onType = (value: string) => {
    setTyped(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setSearch(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (value) next.set('filter', value);
          else next.delete('filter');
          next.delete('page');
          return next;
        },
        { replace: true },
      );
      setTyped(null);
    }, SEARCH_DEBOUNCE_MS);
  };

  // The paging button pressed last: when it turns disabled (first or last page reached), focus goes to the other one
  // rather than being lost to the page.
  const pagesNav = useRef<HTMLElement>(null);
  const pressed = useRef<'previous' | 'next' | undefined>(undefined);

  const goToPage = (target: number) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (target > 1) next.set('page', String(target));
        else next.delete('page');
        return next;
      },
      { replace: true },
    );

  const { data: view } = useSelectCustomerViewQuery({ returnUrl, cid });
  const searched = filter.trim();
  // RTK Query shows the answer of the latest arguments only: a superseded search never replaces a newer one.
  const {
    data: result,
    isFetching,
    isError,
  } = useCustomersQuery({ filter: searched, page, size, returnUrl });
  const loading = useDelayedFlag(isFetching, LOADING_DELAY_MS);

  const customers = result?.customers ?? [];
  const preselected = view?.preselected ?? null;
  const listed: CustomerSummary[] =
    preselected && page === 1 && searched === ''
      ? [preselected, ...customers.filter((customer) => customer.id !== preselected.id)]
      : customers;

  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const activeIndex = Math.max(
    0,
    listed.findIndex((customer) => customer.id === activeId),
  );

  const [selectCustomer, { isLoading: choosing, error }] = useSelectCustomerMutation();
  const errors = useFormErrors(error);
  const errorMessages = [...errors.form, ...errors.field('customerId')];

  const choose = async (customer: CustomerSummary) => {
    if (choosing) return;
    setActiveId(customer.id);
    const target = view?.returnUrl ?? returnUrl;
    const outcome = await selectCustomer({ customerId: customer.id, returnUrl: target });
    // A 200 without a step change should not happen; go on to the returnUrl through the safe redirect page.
    if ('data' in outcome && !isRedirectFollowed(outcome.data)) {
      window.location.assign(withReturnUrl('/redirect', target));
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (listed.length === 0) return;
    const last = listed.length - 1;
    const move: Record<string, number> = {
      ArrowDown: Math.min(activeIndex + 1, last),
      ArrowUp: Math.max(activeIndex - 1, 0),
      Home: 0,
      End: last,
    };
    if (event.key in move && (event.key.startsWith('Arrow') || event.ctrlKey)) {
      event.preventDefault();
      setActiveId(listed[move[event.key]!]!.id);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void choose(listed[activeIndex]!);
    }
  };

  const baseId = useId();
  const listId = `${baseId}-customers`;
  const optionId = (index: number) => `${baseId}-customer-${index}`;
  const total = result?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  const from = (page - 1) * size + 1;

  useEffect(() => {
    const step = pressed.current;
    pressed.current = undefined;
    const nav = pagesNav.current;
    const button = step && nav?.querySelector<HTMLButtonElement>(`[data-pages="${step}"]`);
    if (!nav || !button?.disabled) return;
    nav.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [page, pages]);

  const pageBy = (step: 'previous' | 'next') => {
    pressed.current = step;
    // From a page past the end (an old address), Previous goes to the last page there is.
    goToPage(step === 'next' ? page + 1 : Math.min(page - 1, pages));
  };
  const status = loading
    ? t('select.loading')
    : result && customers.length === 0
      ? t('select.noneFound')
      : result
        ? t('select.showing', { from, to: from + customers.length - 1, total })
        : '';

  return (
    <Page title={t('routes.selectCustomer')} pageId="select">
      <Card>
        <Stack>
          <p>{t('pages.selectCustomer')}</p>
          {errorMessages.length > 0 ? (
            <Alert kind="error">
              {errorMessages.map((message) => (
                <div key={message}>{message}</div>
              ))}
            </Alert>
          ) : null}
          {isError && !isFetching ? <Alert kind="error">{t('errors:genericError')}</Alert> : null}
          <TextField
            label={t('select.searchLabel')}
            type="search"
            name="filter"
            autoComplete="off"
            spellCheck={false}
            maxLength={CUSTOMER_FILTER_MAX}
            value={text}
            onChange={(event) => onType(event.target.value)}
            onKeyDown={onKeyDown}
            role="combobox"
            aria-expanded={listed.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={listed.length > 0 ? optionId(activeIndex) : undefined}
            autoFocus
          />
          <div role="status" aria-live="polite" data-testid="customers-status">
            {status}
          </div>
          <ul
            id={listId}
            role="listbox"
            aria-label={t('select.listLabel')}
            aria-busy={isFetching || undefined}
            className="hr-stack hr-list-plain"
          >
            {listed.map((customer, index) => {
              const active = index === activeIndex;
              return (
                <li
                  key={customer.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={active}
                  data-active={active || undefined}
                  className={`hr-button ${active ? 'hr-button--primary' : 'hr-button--secondary'}`}
                  onMouseEnter={() => setActiveId(customer.id)}
                  onClick={() => void choose(customer)}
                >
                  {customer.name}
                  {customer.id === preselected?.id ? ` (${t('select.preselected')})` : null}
                </li>
              );
            })}
          </ul>
          {total > size ? (
            // Paging is navigation, not a choice: its own landmark below the list, a row of secondary buttons around
            // the page number (a flex row, so right-to-left mirrors it), set apart from the options by a rule.
            <nav
              ref={pagesNav}
              aria-label={t('select.pagesLabel')}
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                gap: 'var(--hr-space-3)',
                paddingBlockStart: 'var(--hr-space-3)',
                borderBlockStart: '1px solid var(--hr-color-border)',
              }}
            >
              <Button
                variant="secondary"
                data-pages="previous"
                disabled={page <= 1}
                onClick={() => pageBy('previous')}
              >
                {t('select.previous')}
              </Button>
              <p aria-live="polite" aria-atomic="true" data-testid="customers-page" style={{ margin: 0 }}>
                {t('select.pageOf', { page, pages })}
              </p>
              <Button
                variant="secondary"
                data-pages="next"
                disabled={page >= pages}
                onClick={() => pageBy('next')}
              >
                {t('select.next')}
              </Button>
            </nav>
          ) : null}
          {choosing ? <p role="status">{t('select.choosing')}</p> : null}
        </Stack>
      </Card>
    </Page>
  );
}
