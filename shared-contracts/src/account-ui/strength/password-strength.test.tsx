// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { afterEach, describe, expect, it } from 'vitest';
import meter from './meter-dictionary.json' with { type: 'json' };
import { estimateStrength } from './estimator.js';
import { PasswordStrength, type PasswordStrengthStrings } from './password-strength.js';

afterEach(cleanup);

const LEVELS = ['very weak', 'weak', 'fair', 'strong', 'very strong'];
const STRINGS: PasswordStrengthStrings = { strength: (score) => `Password strength: ${LEVELS[score]}` };

describe('PasswordStrength', () => {
  it('says the level in words (the page’s own) in a polite live region, loading the estimator on the first character', async () => {
    render(<PasswordStrength password="password123" strings={STRINGS} />);
    const level = await screen.findByText('Password strength: very weak');
    expect(level.getAttribute('aria-live')).toBe('polite');
    cleanup();
    render(<PasswordStrength password="violet tractor under a paper moon" strings={STRINGS} />);
    expect(await screen.findByText('Password strength: very strong')).toBeTruthy();
  });

  it('counts the person’s own words as known', async () => {
    render(<PasswordStrength password="emiliedupont1987" strings={STRINGS} userInputs={['emiliedupont']} />);
    expect(await screen.findByText(/very weak|weak/)).toBeTruthy();
    expect(estimateStrength('emiliedupont1987', ['emiliedupont'])).toBeLessThan(
      estimateStrength('emiliedupont1987'),
    );
  });

  it('shows nothing for an empty password', () => {
    render(<PasswordStrength password="" strings={STRINGS} />);
    expect(document.body.textContent).toBe('');
  });
});

describe('the meter’s estimate', () => {
  it('rates breached passwords, keyboard walks and repeats low, and long passphrases high', () => {
    for (const weak of ['password', 'Password1', 'qwerty123', 'aaaaaaaaaa', '12345678', 'iloveyou'])
      expect(estimateStrength(weak), weak).toBeLessThanOrEqual(1);
    for (const strong of ['violet tractor under a paper moon', 'Kx9#mQ2!vL7@pR4$'])
      expect(estimateStrength(strong), strong).toBe(4);
  });

  // The shipped file cannot drift from the package it was cut from (mfe-recovery's scripts/meter-dictionary.mjs).
  it('ships the first 2,000 breached passwords and the keyboard graphs of @zxcvbn-ts/language-common as they are', () => {
    expect(meter).toEqual({
      graphs: adjacencyGraphs,
      passwords: dictionary['passwords-common'].slice(0, 2000),
    });
  });
});
