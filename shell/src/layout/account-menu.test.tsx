// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import enGBCommon from '../locales/en-GB/common.json';
import { AccountMenu } from './account-menu';

afterEach(cleanup);

async function render() {
  await renderWithProviders(
    <>
      <AccountMenu name="Émilie Dupont" />
      <button type="button">Elsewhere</button>
    </>,
    { resources: { 'en-GB': { common: enGBCommon } }, defaultNS: 'common' },
  );
  return screen.getByRole('button', { name: 'Émilie Dupont' });
}

describe('the header’s account menu (a WAI-ARIA disclosure, issue 49)', () => {
  it('is a button with the person’s name that shows and hides its two links', async () => {
    const button = await render();
    expect(screen.getByRole('navigation', { name: 'Your account' })).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(list.hidden).toBe(false);
    expect(screen.getByRole('link', { name: 'Security centre' }).getAttribute('href')).toBe('/account/');
    expect(screen.getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe('/account/logout');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(list.hidden).toBe(true);
  });

  it('closes on Escape and gives focus back to the button', async () => {
    const button = await render();
    fireEvent.click(button);
    const link = screen.getByRole('link', { name: 'Security centre' });
    act(() => link.focus());
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('closes when focus or a pointer goes elsewhere, and when one of its links is followed', async () => {
    const button = await render();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.click(button);
    act(() => elsewhere.focus());
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    fireEvent.pointerDown(elsewhere);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('link', { name: 'Security centre' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
