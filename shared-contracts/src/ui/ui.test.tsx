// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Alert, Button, ProgressBar, TextField } from './index.js';

afterEach(cleanup);

describe('UI kit', () => {
  it('TextField ties its label, hint and errors to the input', () => {
    render(<TextField label="Username" errors={['This field is required.']} hint="Caps" />);
    const input = screen.getByLabelText('Username');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy).toHaveLength(2);
    expect(document.getElementById(describedBy[1]!)!.textContent).toBe('This field is required.');
  });

  it('TextField without errors is not marked invalid', () => {
    render(<TextField label="Password" />);
    expect(screen.getByLabelText('Password').hasAttribute('aria-invalid')).toBe(false);
  });

  it('Button while loading is disabled and busy; type defaults to button', () => {
    render(<Button loading>Sign in</Button>);
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('type')).toBe('button');
  });

  it('Alert: errors are announced at once, info politely', () => {
    render(<Alert kind="error">Bad</Alert>);
    render(<Alert kind="info">Note</Alert>);
    expect(screen.getByRole('alert').textContent).toBe('Bad');
    expect(screen.getByRole('status').textContent).toBe('Note');
  });

  it('ProgressBar renders only while active', () => {
    const { rerender } = render(<ProgressBar active={false} label="Loading" />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(<ProgressBar active label="Loading" />);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
  });

  it('tokens.css uses logical properties only, so right-to-left mirrors', async () => {
    // @ts-expect-error -- vite's `?raw` import has no type declaration in this DOM-only package
    const css = ((await import('./tokens.css?raw')) as { default: string }).default;
    expect(css).not.toMatch(
      /(margin|padding|border)-(left|right)\b|[^-]\b(left|right)\s*:|text-align:\s*(left|right)/,
    );
  });
});
