// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type SecurityCentreView } from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';
import { renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import { CustomerSection } from './customer';
import enGB from './locales/en-GB.json';
import { useSecurityCentreViewQuery } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

/** A complete view (the query checks the answer against the schema), as the gateway answers it. */
const VIEW: SecurityCentreView = {
  profile: {
    userName: 'edupont',
    displayName: 'Émilie Dupont',
    email: 'emilie@example.com',
    pendingEmail: null,
  },
  recentSignInUntil: 1,
  twoStep: { methods: [], required: false },
  passkeys: [],
  recoveryCodes: { remaining: 10 },
  sessions: [],
  browserRemembered: false,
  rememberedBrowsers: [],
  passwordRules: DEFAULT_PASSWORD_RULES,
  customer: { id: 'c1', name: 'Acme Payroll' },
  canSwitchCustomer: true,
};

/** The card as the page hosts it, with the view from `SecurityCentreView`. */
function Centre() {
  const { data: view } = useSecurityCentreViewQuery();
  return view ? <CustomerSection view={view} /> : null;
}

async function renderCentre(answers: StubAnswers) {
  const gateway = stubGateway({ SecurityCentreView: () => Response.json(VIEW), ...answers });
  const rendered = await renderWithProviders(<Centre />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  await screen.findByTestId('customer');
  return { ...gateway, store: rendered.store };
}

const card = (id: string) => within(screen.getByTestId(id));

describe('the customer card', () => {
  it('shows the new customer after a switch made elsewhere (the shared Account tag), without a reload', async () => {
    let customer = VIEW.customer;
    const { store } = await renderCentre({
      SecurityCentreView: () => Response.json({ ...VIEW, customer }),
      SelectCustomer: () => Response.json({}),
    });
    expect(card('customer').getByText('You are working for Acme Payroll.')).toBeTruthy();
    // mfe-tenant's SelectCustomer, as it is declared there: a mutation of the one store invalidating User and Account.
    const customerPicker = baseApi.injectEndpoints({
      endpoints: (build) => ({
        selectCustomerElsewhere: build.mutation<unknown, { id: string }>({
          query: (body) => ({ url: 'SelectCustomer', method: 'POST', body }),
          invalidatesTags: ['User', 'Account'],
        }),
      }),
    });
    customer = { id: 'c2', name: 'Zephyr Foods' };
    await act(async () => {
      await store.dispatch(customerPicker.endpoints.selectCustomerElsewhere.initiate({ id: 'c2' }));
    });
    expect(await card('customer').findByText('You are working for Zephyr Foods.')).toBeTruthy();
  });
});
