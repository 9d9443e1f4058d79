// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore, setTimedOut, type RootState } from '../api/index.js';
import { renderWithProviders } from './render-with-providers.js';

afterEach(cleanup);

/** Shows what a page reads from each provider. */
function Probe() {
  const { t } = useTranslation();
  const location = useLocation();
  const timedOut = useSelector((state: RootState) => state.session.timedOut);
  return (
    <ul>
      <li>{t('title')}</li>
      <li>{t('onlyEnGB')}</li>
      <li>{t('errors:required')}</li>
      <li data-testid="location">{location.pathname + location.search}</li>
      <li data-testid="timed-out">{String(timedOut)}</li>
    </ul>
  );
}

const RESOURCES = {
  'en-GB': { 'mfe-test': { title: 'Sign in', onlyEnGB: 'Only in en-GB' } },
  de: { 'mfe-test': { title: 'Anmelden' } },
};

describe('renderWithProviders', () => {
  it("renders in the given language with the remote's namespace, en-GB fallback and the shell's errors", async () => {
    const { i18n } = await renderWithProviders(<Probe />, { resources: RESOURCES, lng: 'de' });
    expect(screen.getByText('Anmelden')).toBeTruthy();
    expect(screen.getByText('Only in en-GB')).toBeTruthy();
    expect(screen.getByText('Dieses Feld ist erforderlich.')).toBeTruthy();
    expect(i18n.language).toBe('de');
  });

  it('puts the memory router at the given path', async () => {
    await renderWithProviders(<Probe />, { resources: RESOURCES, path: '/account/select?cid=3' });
    expect(screen.getByTestId('location').textContent).toBe('/account/select?cid=3');
  });

  it('renders with the given store, or a fresh one with the base API', async () => {
    const store = createAppStore();
    store.dispatch(setTimedOut(true));
    await renderWithProviders(<Probe />, { resources: RESOURCES, store });
    expect(screen.getByTestId('timed-out').textContent).toBe('true');
    cleanup();
    const fresh = await renderWithProviders(<Probe />, { resources: RESOURCES });
    expect(screen.getByTestId('timed-out').textContent).toBe('false');
    expect(fresh.store.getState().api).toBeDefined();
  });
});
