import { cleanup, screen } from '@testing-library/react';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from 'shared-contracts/testing';
import de from '../../../locales/de.json';
import enGB from '../../../locales/en-GB.json';
import meter from './meter-dictionary.json';
import { estimateStrength } from './estimator';
import { PasswordStrength } from './password-strength';

afterEach(cleanup);

async function renderMeter(password: string, locale: 'en-GB' | 'de' = 'en-GB') {
  await renderWithProviders(<PasswordStrength password={password} />, {
    path: '/',
    lng: locale,
    resources: { 'en-GB': { 'mfe-recovery': enGB }, de: { 'mfe-recovery': de } },
  });
}

describe('PasswordStrength', () => {
  it('says the level in words in a polite live region, loading the estimator on the first character', async () => {
    await renderMeter('password123');
    const level = await screen.findByText('Password strength: very weak');
    expect(level.getAttribute('aria-live')).toBe('polite');
    cleanup();
    await renderMeter('violet tractor under a paper moon');
    expect(await screen.findByText('Password strength: very strong')).toBeTruthy();
  });

  it('shows nothing for an empty password', async () => {
    await renderMeter('');
    expect(document.body.textContent).toBe('');
  });

  it('speaks the visitor’s language', async () => {
    await renderMeter('qwertyuiop', 'de');
    expect(await screen.findByText('Passwortstärke: sehr schwach')).toBeTruthy();
  });
});

describe('the meter’s estimate', () => {
  it('rates breached passwords, keyboard walks and repeats low, and long passphrases high', () => {
    for (const weak of ['password', 'Password1', 'qwerty123', 'aaaaaaaaaa', '12345678', 'iloveyou'])
      expect(estimateStrength(weak), weak).toBeLessThanOrEqual(1);
    for (const strong of ['violet tractor under a paper moon', 'Kx9#mQ2!vL7@pR4$'])
      expect(estimateStrength(strong), strong).toBe(4);
  });

  // The shipped file cannot drift from the package it was cut from (scripts/meter-dictionary.mjs).
  it('ships the first 2,000 breached passwords and the keyboard graphs of @zxcvbn-ts/language-common as they are', () => {
    expect(meter).toEqual({
      graphs: adjacencyGraphs,
      passwords: dictionary['passwords-common'].slice(0, 2000),
    });
  });
});
