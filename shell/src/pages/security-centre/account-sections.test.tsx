// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type SecurityCentreView } from 'shared-contracts';
import { baseApi, useUserQuery } from 'shared-contracts/api';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import { ConfirmEmailChange, CustomerSection, PasswordSection, ProfileSection } from './account-sections';
import enGB from './locales/en-GB.json';
import { useSecurityCentreViewQuery } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

afterEach(cleanup);

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
  passwordRules: { ...DEFAULT_PASSWORD_RULES, minLength: 10 },
  customer: { id: 'c1', name: 'Acme Payroll' },
  canSwitchCustomer: true,
};

/**
 * The centre as the page hosts it, reduced to the parts under test: the view from `SecurityCentreView`, the
 * signed-in person's name from `User` (what the page's header shows), and the sections.
 */
function Centre() {
  const { data: view } = useSecurityCentreViewQuery();
  const { data: user } = useUserQuery();
  if (!view) return null;
  return (
    <>
      <p data-testid="signed-in-name">{user?.displayName}</p>
      <ConfirmEmailChange />
      <ProfileSection view={view} />
      <CustomerSection view={view} />
      <PasswordSection view={view} />
    </>
  );
}

async function renderCentre(answers: StubAnswers, path = '/account/') {
  const gateway = stubGateway({
    SecurityCentreView: () => Response.json(VIEW),
    User: () => Response.json({ isAuthenticated: true, userName: 'edupont', displayName: 'Émilie Dupont' }),
    ...answers,
  });
  const rendered = await renderWithProviders(<Centre />, {
    path,
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  await screen.findByTestId('profile');
  return { ...gateway, store: rendered.store };
}

const card = (id: string) => within(screen.getByTestId(id));

describe('results shown where the person acted', () => {
  it('says "Saved" beside the display name once saved, and the signed-in name changes at once', async () => {
    let displayName = 'Émilie Dupont';
    await renderCentre({
      UpdateProfile: ({ body }) => {
        displayName = (body as { displayName: string }).displayName;
        return Response.json({});
      },
      User: () => Response.json({ isAuthenticated: true, userName: 'edupont', displayName }),
      SecurityCentreView: () => Response.json({ ...VIEW, profile: { ...VIEW.profile, displayName } }),
    });
    await waitFor(() => expect(screen.getByTestId('signed-in-name').textContent).toBe('Émilie Dupont'));
    const status = card('profile').getByRole('status');
    expect(status.textContent).toBe('');
    fireEvent.change(card('profile').getByLabelText('Display name'), { target: { value: 'Émilie D.' } });
    fireEvent.click(card('profile').getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status.textContent).toBe('Saved'));
    await waitFor(() => expect(screen.getByTestId('signed-in-name').textContent).toBe('Émilie D.'));
    // Editing again takes the word back: it speaks of what was saved, not of what is typed.
    fireEvent.change(card('profile').getByLabelText('Display name'), { target: { value: 'Émilie' } });
    expect(status.textContent).toBe('');
  });

  it('shows a refused save’s error in the card and keeps what was typed', async () => {
    await renderCentre({ UpdateProfile: () => fieldError('displayName', 'required') });
    fireEvent.change(card('profile').getByLabelText('Display name'), { target: { value: '   ' } });
    fireEvent.click(card('profile').getByRole('button', { name: 'Save' }));
    expect(await card('profile').findByText('This field is required.')).toBeTruthy();
    expect(card('profile').getByLabelText<HTMLInputElement>('Display name').value).toBe('   ');
    expect(card('profile').getByRole('status').textContent).toBe('');
  });

  it('shows the new customer after a switch made elsewhere (the shared Account tag), without a reload', async () => {
    let customer = VIEW.customer;
    const { store } = await renderCentre({
      SecurityCentreView: () => Response.json({ ...VIEW, customer }),
      SelectCustomer: () => Response.json({}),
    });
    expect(card('customer').getByText('You are working for Acme Payroll.')).toBeTruthy();
    // mfe-tenant's SelectCustomer, as it is declared there: a mutation of the one store invalidating User and Account.
    const tenant = baseApi.injectEndpoints({
      endpoints: (build) => ({
        selectCustomerElsewhere: build.mutation<unknown, { id: string }>({
          query: (body) => ({ url: 'SelectCustomer', method: 'POST', body }),
          invalidatesTags: ['User', 'Account'],
        }),
      }),
    });
    customer = { id: 'c2', name: 'Zephyr Foods' };
    await act(async () => {
      await store.dispatch(tenant.endpoints.selectCustomerElsewhere.initiate({ id: 'c2' }));
    });
    expect(await card('customer').findByText('You are working for Zephyr Foods.')).toBeTruthy();
  });

  it('confirms a new e-mail address in its card, which stays with the address in it', async () => {
    await renderCentre(
      { ConfirmEmailChange: () => Response.json({ email: 'new@example.com' }) },
      '/account/?confirmEmail=abc',
    );
    const status = card('confirm-email').getByRole('status');
    expect(status.textContent).toBe('');
    fireEvent.click(card('confirm-email').getByRole('button', { name: 'Confirm email address' }));
    await waitFor(() => expect(status.textContent).toBe('Your email address is now new@example.com.'));
    expect(card('confirm-email').queryByRole('button')).toBeNull();
    expect(document.activeElement).toBe(card('confirm-email').getByRole('heading'));
  });
});

describe('the password card', () => {
  const fields = () => ({
    current: card('password').getByLabelText<HTMLInputElement>('Current password'),
    fresh: card('password').getByLabelText<HTMLInputElement>('New password'),
    confirm: card('password').getByLabelText<HTMLInputElement>('Confirm new password'),
  });

  it('has the expired-password page’s field: rules marked as one types, the meter, Show on current and new', async () => {
    await renderCentre({});
    const { current, fresh, confirm } = fields();
    const rule = () => card('password').getByText('Password must be at least 10 characters.').closest('li')!;
    expect(rule().textContent).toBe('✗Not met: Password must be at least 10 characters.');
    fireEvent.change(fresh, { target: { value: 'Lantern-Orchid-47!' } });
    expect(rule().textContent).toBe('✓Met: Password must be at least 10 characters.');
    expect(await card('password').findByText(/^Password strength: /)).toBeTruthy();
    const [showCurrent, showNew] = card('password').getAllByRole('button', { name: 'Show password' });
    fireEvent.click(showCurrent!);
    expect([current.type, fresh.type, confirm.type]).toEqual(['text', 'password', 'password']);
    fireEvent.click(showNew!);
    expect([current.type, fresh.type, confirm.type]).toEqual(['text', 'text', 'text']);
  });

  it('keeps what was typed when the change is refused, with the error under its field; empties the fields once done', async () => {
    let refuse = true;
    const { calls } = await renderCentre({
      ChangePassword: () =>
        refuse ? fieldError('currentPassword', 'currentPasswordIncorrect') : Response.json({}),
    });
    const { current, fresh, confirm } = fields();
    fireEvent.change(current, { target: { value: 'not the password' } });
    fireEvent.change(fresh, { target: { value: 'Lantern-Orchid-47!' } });
    fireEvent.change(confirm, { target: { value: 'Lantern-Orchid-47!' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${current.id}-errors`)?.textContent).toBe(
      'The current password is incorrect.',
    );
    expect([current.value, fresh.value, confirm.value]).toEqual([
      'not the password',
      'Lantern-Orchid-47!',
      'Lantern-Orchid-47!',
    ]);
    expect(document.activeElement).toBe(current);
    expect(card('password').getByTestId('password-result').textContent).toBe('');

    refuse = false;
    fireEvent.change(current, { target: { value: 'the-old-one-1' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(card('password').getByTestId('password-result').textContent).toBe(
        'Password changed. Your other devices were signed out.',
      ),
    );
    expect([current.value, fresh.value, confirm.value]).toEqual(['', '', '']);
    expect(calls.filter((c) => c.call === 'ChangePassword').map((c) => c.body)).toEqual([
      {
        currentPassword: 'not the password',
        newPassword: 'Lantern-Orchid-47!',
        confirmPassword: 'Lantern-Orchid-47!',
      },
      {
        currentPassword: 'the-old-one-1',
        newPassword: 'Lantern-Orchid-47!',
        confirmPassword: 'Lantern-Orchid-47!',
      },
    ]);
  });

  it('sends nothing while the new password breaks a rule or the two differ', async () => {
    const { calls } = await renderCentre({ ChangePassword: () => Response.json({}) });
    const { current, fresh, confirm } = fields();
    fireEvent.change(current, { target: { value: 'the-old-one-1' } });
    fireEvent.change(fresh, { target: { value: 'short' } });
    fireEvent.change(confirm, { target: { value: 'other' } });
    fireEvent.click(card('password').getByRole('button', { name: 'Change password' }));
    expect(card('password').getByText('Password does not meet the requirements.')).toBeTruthy();
    expect(card('password').getByText('Passwords must match.')).toBeTruthy();
    expect(document.activeElement).toBe(fresh);
    expect(calls.filter((c) => c.call === 'ChangePassword')).toEqual([]);
  });
});
