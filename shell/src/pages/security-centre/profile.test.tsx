// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, type SecurityCentreView } from 'shared-contracts';
import { useUserQuery } from 'shared-contracts/api';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import enGB from './locales/en-GB.json';
import { ProfileSection } from './profile';
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

/** The card as the page hosts it: the view from `SecurityCentreView`, the header's name from `User`. */
function Centre() {
  const { data: view } = useSecurityCentreViewQuery();
  const { data: user } = useUserQuery();
  if (!view) return null;
  return (
    <>
      <p data-testid="signed-in-name">{user?.displayName}</p>
      <ProfileSection view={view} />
    </>
  );
}

async function renderCentre(answers: StubAnswers) {
  const gateway = stubGateway({
    SecurityCentreView: () => Response.json(VIEW),
    User: () => Response.json({ isAuthenticated: true, userName: 'edupont', displayName: 'Émilie Dupont' }),
    ...answers,
  });
  await renderWithProviders(<Centre />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  await screen.findByTestId('profile');
  return gateway;
}

const card = (id: string) => within(screen.getByTestId(id));

describe('the profile card', () => {
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
});
