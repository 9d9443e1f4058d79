// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Alert, Button, FormErrors, ProgressBar, TextField } from './index.js';

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

  it('TextField shows a hint as guidance and a warning as a warning, both read out with the field', () => {
    render(<TextField label="Code" hint="Spaces do not matter." warning="Caps lock is on." />);
    const input = screen.getByLabelText('Code');
    const [hint, warning] = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)!);
    expect(hint!.textContent).toBe('Spaces do not matter.');
    expect(hint!.className).toBe('hr-field__hint');
    expect(hint!.hasAttribute('aria-live')).toBe(false);
    expect(warning!.textContent).toBe('Caps lock is on.');
    expect(warning!.className).toBe('hr-field__warning');
    expect(warning!.getAttribute('aria-live')).toBe('polite');
  });

  it('TextField keeps an empty warning region, not described by it, until a warning comes', () => {
    const { rerender } = render(<TextField label="Password" warning="" />);
    const input = screen.getByLabelText('Password');
    const region = document.querySelector('.hr-field__warning')!;
    expect(region.textContent).toBe('');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    rerender(<TextField label="Password" warning="Caps lock is on." />);
    expect(document.querySelector('.hr-field__warning')).toBe(region);
    expect(input.getAttribute('aria-describedby')).toBe(region.id);
  });

  it('TextField without errors is not marked invalid', () => {
    render(<TextField label="Password" />);
    expect(screen.getByLabelText('Password').hasAttribute('aria-invalid')).toBe(false);
  });

  it('Button while loading keeps focus, says it is busy and ignores presses; type defaults to button', () => {
    let presses = 0;
    render(
      <Button loading onClick={() => (presses += 1)}>
        Sign in
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Sign in' });
    button.focus();
    expect(document.activeElement).toBe(button);
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('type')).toBe('button');
    fireEvent.click(button);
    expect(presses).toBe(0);
  });

  it('Button that is not busy passes presses on', () => {
    let presses = 0;
    render(<Button onClick={() => (presses += 1)}>Go</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(presses).toBe(1);
  });

  it('FormErrors lists each form error in one alert, and shows nothing without errors', () => {
    const { container, rerender } = render(<FormErrors messages={[]} />);
    expect(container.innerHTML).toBe('');
    rerender(<FormErrors messages={['Too many attempts.', 'Try later.']} />);
    expect(screen.getByRole('alert').textContent).toBe('Too many attempts.Try later.');
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
