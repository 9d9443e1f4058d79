// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from 'shared-contracts';
import { renderWithProviders } from 'shared-contracts/testing';
import enGBCommon from '../locales/en-GB/common.json';
import { initialOf } from './profile-avatar';
import { SignedInCard } from './signed-in-card';

afterEach(cleanup);

const USER: CurrentUser = { isAuthenticated: true, displayName: 'Émilie Dupont', userName: 'edupont' };

function fetchStub() {
  return () => Promise.resolve(Response.json([]));
}

describe('the signed-in card shows who is signed in', () => {
  it('shows the ProfileImage picture beside the name, decorative (the name is the text)', async () => {
    await renderWithProviders(<SignedInCard user={USER} />, {
      resources: { 'en-GB': { common: enGBCommon } },
      defaultNS: 'common',
      fetch: fetchStub(),
    });
    expect(screen.getByText('You are signed in as Émilie Dupont.')).toBeTruthy();
    const image = screen.getByTestId('profile-image');
    expect(image.getAttribute('src')).toBe('/api/Account/ProfileImage');
    expect(image.getAttribute('alt')).toBe('');
  });

  it('falls back to the initial when the picture cannot be shown', async () => {
    await renderWithProviders(<SignedInCard user={USER} />, {
      resources: { 'en-GB': { common: enGBCommon } },
      defaultNS: 'common',
      fetch: fetchStub(),
    });
    fireEvent.error(screen.getByTestId('profile-image'));
    expect(screen.queryByTestId('profile-image')).toBeNull();
    const initial = screen.getByTestId('profile-initial');
    expect(initial.textContent).toBe('É');
    expect(initial.getAttribute('aria-hidden')).toBe('true');
  });

  it('leads to the security centre, except on the centre itself (issue 49)', async () => {
    await renderWithProviders(<SignedInCard user={USER} />, {
      resources: { 'en-GB': { common: enGBCommon } },
      defaultNS: 'common',
      fetch: fetchStub(),
    });
    expect(screen.getByRole('link', { name: 'Security centre' }).getAttribute('href')).toBe('/account/');
    cleanup();
    await renderWithProviders(<SignedInCard user={USER} securityCentreLink={false} />, {
      resources: { 'en-GB': { common: enGBCommon } },
      defaultNS: 'common',
      fetch: fetchStub(),
    });
    expect(screen.queryByRole('link', { name: 'Security centre' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign out' })).toBeTruthy();
  });

  it('takes the first letter or digit of a name', () => {
    expect(initialOf('  ann smith')).toBe('A');
    expect(initialOf('(42) team')).toBe('4');
    expect(initialOf('…')).toBe('');
  });
});

describe('the signed-in card follows the User query', () => {
  it('names the person by the current User answer (a name saved since this navigation), not only the loader’s', async () => {
    await renderWithProviders(<SignedInCard user={USER} />, {
      resources: { 'en-GB': { common: enGBCommon } },
      defaultNS: 'common',
      fetch: (input: RequestInfo | URL) =>
        Promise.resolve(
          (input instanceof Request ? input.url : input.toString()).includes('/User')
            ? Response.json({ isAuthenticated: true, userName: 'edupont', displayName: 'Émilie Durand' })
            : Response.json([]),
        ),
    });
    expect(await screen.findByText('You are signed in as Émilie Durand.')).toBeTruthy();
  });
});
