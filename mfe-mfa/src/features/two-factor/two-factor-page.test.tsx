import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldError, renderWithProviders, stubGateway, type StubAnswers } from 'shared-contracts/testing';
import de from '../../locales/de.json';
import enGB from '../../locales/en-GB.json';
import { defaultMethod, TwoFactorLoginPage } from './two-factor-page';

afterEach(cleanup);

async function render(ui: React.ReactElement, answers: StubAnswers, path: string, lng = 'en-GB') {
  const gateway = stubGateway(answers);
  const result = await renderWithProviders(ui, {
    path,
    lng,
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-mfa': enGB }, de: { 'mfe-mfa': de } },
  });
  return { gateway, result };
}

const view =
  (methods: string[] = ['authenticator']) =>
  () =>
    Response.json({
      methods,
      rememberBrowserAllowed: false,
      maskedPhone: methods.includes('sms') ? '•••• 0123' : null,
      maskedEmail: methods.includes('pin') ? 'j•••@example.test' : null,
    });

/** The calls that text or mail a code. */
const deliveries = (calls: { call: string }[]) =>
  calls.filter((c) => c.call === 'SendOTP' || c.call === 'GeneratePin' || c.call === 'PinReference');

/** Lets every pending answer and effect run, so a call the page would make on its own has been made. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * SPEC.md §2 puts the hint "codes ignore spaces and case" on the two-step code page (issue 49), tied to the field
 * (its description), wherever a code is typed.
 */
const expectCaseHint = (field: HTMLElement) =>
  expect(field.getAttribute('aria-describedby') ?? '').toContain(
    screen.getByText("Spaces and case don't matter.").id,
  );

describe('defaultMethod', () => {
  it('is the default the account chose, which the server lists first', () => {
    expect(defaultMethod(['sms', 'authenticator'])).toBe('sms');
    expect(defaultMethod(['pin', 'authenticator', 'sms'])).toBe('pin');
    expect(defaultMethod(['authenticator', 'sms'])).toBe('authenticator');
    expect(defaultMethod(['sms'])).toBe('sms');
    expect(defaultMethod([])).toBe('authenticator');
  });
});

describe('TwoFactorLoginPage', () => {
  it('opens on the default method, sends nothing, gives the hint, and sends the method and the code', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        // The account's chosen default is listed first.
        LoginWith2FAView: view(['authenticator', 'sms']),
        LoginWith2FA: () => fieldError('code', 'invalidCode'),
      },
      '/account/login/twofactor?returnUrl=%2Fportal',
    );
    const field = await screen.findByLabelText('Code from your authenticator app');
    expect(screen.getByText('Method: Authenticator app')).toBeTruthy();
    expectCaseHint(field);
    await settle();
    expect(deliveries(gateway.calls)).toEqual([]);
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('The code is not valid or has expired. Check it and try again.'),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
      method: 'authenticator',
      code: '123 456',
    });
    const others = screen.getByRole('group', { name: 'Use another method' });
    expect(within(others).getByRole('button', { name: 'Get a code by text message (SMS)' })).toBeTruthy();
    expect(
      within(others).getByRole('link', { name: 'Use a recovery code instead' }).getAttribute('href'),
    ).toBe('/account/login/recoverycode?returnUrl=%2Fportal');
  });

  it('texts nothing when it opens on SMS; "Send code" texts one, and a quiet link under the field asks again', async () => {
    const answers = [
      { sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 0 },
      { sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 60 },
    ];
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      { LoginWith2FAView: view(['sms']), SendOTP: () => Response.json(answers.shift()) },
      '/account/login/twofactor',
    );
    expect(await screen.findByText('We’ll text a code to •••• 0123.')).toBeTruthy();
    await settle();
    expect(deliveries(gateway.calls)).toEqual([]);
    // No code to type yet, so no field and no Verify competing with the one action.
    expect(screen.queryByLabelText('Code from the text message (SMS)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const field = await screen.findByLabelText('Code from the text message (SMS)');
    expect(screen.getByText('We sent a code to •••• 0123.')).toBeTruthy();
    expect(deliveries(gateway.calls).map((c) => c.call)).toEqual(['SendOTP']);
    expect(screen.queryByRole('button', { name: 'Send code' })).toBeNull();
    expectCaseHint(field);

    // "Send a new code" is a link-style button under the field, not a second full-width button.
    const resend = screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new code' });
    expect(resend.className).toContain('hr-button--link');
    expect(field.compareDocumentPosition(resend) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(resend.disabled).toBe(false));
    fireEvent.click(resend);
    // The server's wait before the next one is shown, and the link waits for it.
    expect(await screen.findByText(/You can ask for a new code in \d+ s\./)).toBeTruthy();
    expect(resend.disabled).toBe(true);
    expect(deliveries(gateway.calls).map((c) => c.call)).toEqual(['SendOTP', 'SendOTP']);
  });

  it('opens on SMS when it is the chosen default, though the account has an authenticator app too', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      { LoginWith2FAView: view(['sms', 'authenticator']) },
      '/account/login/twofactor',
    );
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeTruthy();
    expect(screen.getByText('Method: Text message (SMS)')).toBeTruthy();
    expect(screen.queryByLabelText('Code from your authenticator app')).toBeNull();
    expect(screen.getByRole('button', { name: 'Use your authenticator app' })).toBeTruthy();
    await settle();
    expect(deliveries(gateway.calls)).toEqual([]);
  });

  it('offers the other methods; choosing SMS texts nothing until "Send code"', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: view(['authenticator', 'sms']),
        SendOTP: () => Response.json({ sent: true, maskedPhone: '•••• 0123', retryAfterSeconds: 30 }),
      },
      '/account/login/twofactor',
    );
    await screen.findByLabelText('Code from your authenticator app');
    fireEvent.click(screen.getByRole('button', { name: 'Get a code by text message (SMS)' }));
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeTruthy();
    expect(screen.getByText('Method: Text message (SMS)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use your authenticator app' })).toBeTruthy();
    await settle();
    expect(deliveries(gateway.calls)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('We sent a code to •••• 0123.')).toBeTruthy();
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new code' }).disabled).toBe(true);
    expect(deliveries(gateway.calls).map((c) => c.call)).toEqual(['SendOTP']);
  });

  it('says politely when a text went out moments ago and the server holds the next one back', async () => {
    await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: view(['sms']),
        SendOTP: () => Response.json({ sent: false, maskedPhone: '•••• 0123', retryAfterSeconds: 20 }),
      },
      '/account/login/twofactor',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    expect(
      await screen.findByText('We already sent a code to •••• 0123. Enter that code below.'),
    ).toBeTruthy();
    expect(screen.getByLabelText('Code from the text message (SMS)')).toBeTruthy();
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeTruthy();
  });

  it('mails a PIN only on "Send PIN", asks for digits at positions, reshuffles and resends', async () => {
    const references = [
      { positions: [1, 2, 4, 5, 6, 7], length: 8 },
      { positions: [1, 3, 4, 5, 7, 8], length: 8 },
      { positions: [2, 3, 4, 6, 7, 8], length: 8 },
    ];
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: view(['pin']),
        GeneratePin: () => Response.json(true),
        PinReference: () => Response.json(references.shift() ?? null),
        LoginWith2FA: () => fieldError('code', 'invalidCode'),
      },
      '/account/login/twofactor',
    );
    expect(
      await screen.findByText('We’ll email a PIN to j•••@example.test and ask for some of its digits.'),
    ).toBeTruthy();
    await settle();
    expect(deliveries(gateway.calls)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send PIN' }));
    expectCaseHint(await screen.findByLabelText('Enter digits 1, 2, 4, 5, 6 and 7 of your PIN'));
    expect(screen.getByText('We emailed a PIN to j•••@example.test.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask for other digits' }));
    const field = await screen.findByLabelText('Enter digits 1, 3, 4, 5, 7 and 8 of your PIN');
    fireEvent.change(field, { target: { value: '418205' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
      method: 'pin',
      code: '418205',
    });

    const resend = screen.getByRole('button', { name: 'Email me a new PIN' });
    expect(resend.className).toContain('hr-button--link');
    fireEvent.click(resend);
    expect(await screen.findByLabelText('Enter digits 2, 3, 4, 6, 7 and 8 of your PIN')).toBeTruthy();
    const mails = gateway.calls.filter((c) => c.call === 'GeneratePin');
    expect(mails.map((c) => c.query.get('forced'))).toEqual([null, 'true']);
    expect(screen.getByText(/A new PIN is on its way/)).toBeTruthy();
  });

  it('offers "remember this browser" only where allowed, and sends it when ticked', async () => {
    const { gateway } = await render(
      <TwoFactorLoginPage />,
      {
        LoginWith2FAView: () =>
          Response.json({
            methods: ['authenticator'],
            rememberBrowserAllowed: true,
            maskedPhone: null,
            maskedEmail: null,
          }),
        LoginWith2FA: () => fieldError('code', 'invalidCode'),
      },
      '/account/login/twofactor',
    );
    const remember = await screen.findByRole('checkbox', {
      name: 'Remember this browser for 30 days (don’t use on a shared computer)',
    });
    fireEvent.click(remember);
    fireEvent.change(screen.getByLabelText('Code from your authenticator app'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(gateway.calls.find((c) => c.call === 'LoginWith2FA')?.body).toEqual({
        method: 'authenticator',
        code: '123456',
        rememberBrowser: true,
      }),
    );
  });

  it('speaks German', async () => {
    await render(<TwoFactorLoginPage />, { LoginWith2FAView: view() }, '/account/login/twofactor', 'de');
    expect(await screen.findByLabelText('Code aus Ihrer Authenticator-App')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Bestätigung in zwei Schritten');
  });
});
