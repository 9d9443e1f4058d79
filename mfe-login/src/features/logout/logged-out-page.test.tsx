import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import frCA from '../../locales/fr-CA.json';
import { LoggedOutPage } from './logged-out-page';

afterEach(cleanup);

const render = (path: string) =>
  renderWithProviders(<LoggedOutPage />, {
    path,
    fetch: () => Promise.resolve(Response.json({ isAuthenticated: false })),
    resources: { 'en-GB': { 'mfe-login': enGB } },
  });

/** Every text of a locale file, flattened. */
const texts = (node: unknown): string[] =>
  typeof node === 'string' ? [node] : Object.values(node as object).flatMap(texts);

describe('LoggedOutPage', () => {
  it('says "Signed out" and "You have signed out." in the words of the sign-in pages', async () => {
    await render('/account/loggedout');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed out' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You have signed out.');
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/account/login');
    expect(document.body.textContent).not.toMatch(/logged out|log out|log in/i);
  });

  it('after an idle sign-out says why', async () => {
    await render('/account/loggedout?reason=inactivity');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed out' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You were signed out after a period of inactivity.');
  });

  it('after yes to a company provider that has no sign-out, says the company account may still be signed in (issue 53)', async () => {
    await render('/account/loggedout?upstream=kept');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed out' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You have signed out.');
    expect(screen.getByRole('alert').textContent).toMatch(/^You are signed out here\. The company account/);
    cleanup();
    await render('/account/loggedout?upstream=other');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed out' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('no English text of mfe-login says "log in", "logged out", "One-Time Token", "e-mail" or shouts', () => {
    for (const file of [enGB, en])
      for (const text of texts(file)) {
        expect(text).not.toMatch(
          /\blog ?in\b|logged out|log ?out\b|one-time token|e-mail|2FA|two-factor|security key/i,
        );
        expect(text).not.toMatch(/\b[A-Z]{4,}\b/);
      }
    // The other locales use their own word for the one-time sign-in code, never a "token".
    for (const file of [de, frCA, es])
      for (const text of texts(file)) expect(text).not.toMatch(/token|jeton/i);
  });
});
