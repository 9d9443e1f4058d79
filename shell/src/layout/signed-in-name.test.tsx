// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from 'shared-contracts';
import { baseApi } from 'shared-contracts/api';
import { renderWithProviders } from 'shared-contracts/testing';
import { useSignedInName } from './signed-in-name';

afterEach(cleanup);

const GUARDED: CurrentUser = { isAuthenticated: true, displayName: 'Ada Lovelace', userName: 'ada' };

function Name({ user }: { user: CurrentUser | undefined }) {
  return <p data-testid="name">{useSignedInName(user) ?? '(nobody)'}</p>;
}

/** A gateway whose `User` answers `names` in turn (the last one again); what was asked, by call. */
function userAnswering(...names: string[]) {
  const asked: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    asked.push(url);
    const displayName = names.length > 1 ? names.shift() : names[0];
    return Promise.resolve(
      url.includes('/User')
        ? Response.json({ isAuthenticated: true, userName: 'ada', displayName })
        : Response.json({}),
    );
  };
  return { fetch, asked };
}

describe("the header's signed-in name (issue 49)", () => {
  it('follows the User query: a name saved since this navigation shows without a new one', async () => {
    const gateway = userAnswering('Ada Lovelace', 'Ada King');
    const { store } = await renderWithProviders(<Name user={GUARDED} />, { fetch: gateway.fetch });
    expect(screen.getByTestId('name').textContent).toBe('Ada Lovelace');
    // What UpdateProfile does in the security centre: invalidates `User`.
    act(() => {
      store.dispatch(baseApi.util.invalidateTags(['User']));
    });
    await screen.findByText('Ada King');
  });

  it('shows nobody for a visitor not signed in, and does not ask User for one', async () => {
    const gateway = userAnswering('Ada Lovelace');
    await renderWithProviders(<Name user={{ isAuthenticated: false }} />, { fetch: gateway.fetch });
    expect(screen.getByTestId('name').textContent).toBe('(nobody)');
    expect(gateway.asked.filter((url) => url.includes('/User'))).toEqual([]);
  });
});
