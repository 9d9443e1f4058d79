import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES } from 'shared-contracts';
import { renderWithProviders } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { stubGateway } from '../shared/test-gateway';
import { RecoverPage } from './recover-page';

afterEach(cleanup);

async function renderPage(answer: { status?: number; body: unknown }) {
  const gateway = stubGateway(DEFAULT_PASSWORD_RULES, { Recover: answer });
  await renderWithProviders(<RecoverPage />, {
    path: '/account/recover?returnUrl=%2Faccount%2F',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-recovery': enGB } },
  });
  return gateway.calls;
}

describe('RecoverPage', () => {
  it('refuses an empty login without a call and focuses the field', async () => {
    const calls = await renderPage({ body: { accepted: true } });
    const field = screen.getByLabelText('Username or email');
    fireEvent.submit(field.closest('form')!);
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(document.activeElement).toBe(field);
    expect(calls.some((c) => c.url.startsWith('/api/Account/Recover'))).toBe(false);
  });

  it('sends Recover and always shows the same neutral notice', async () => {
    const calls = await renderPage({ body: { accepted: true } });
    fireEvent.change(screen.getByLabelText('Username or email'), {
      target: { value: 'someone@example.com' },
    });
    fireEvent.submit(screen.getByRole('button', { name: 'Send reset link' }).closest('form')!);
    expect(
      await screen.findByText(
        'If an account matches, we have sent an email with a link to reset the password.',
      ),
    ).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/Account/Recover')?.body).toEqual({
      username: 'someone@example.com',
      returnUrl: '/account/',
    });
  });

  it('shows the throttle message of the 400 errors map', async () => {
    await renderPage({
      status: 400,
      body: { title: 'One or more validation errors occurred.', errors: { '': ['tooManyAttempts'] } },
    });
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'employee' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Send reset link' }).closest('form')!);
    expect(await screen.findByText('Too many attempts. Please wait a moment and try again.')).toBeTruthy();
    expect(screen.queryByText(/If an account matches/)).toBeNull();
  });
});
