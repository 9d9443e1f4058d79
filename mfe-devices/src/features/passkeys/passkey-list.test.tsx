import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmItsYouHere } from 'shared-contracts/account-ui';
import { completeCaptcha, selectCaptcha } from 'shared-contracts/api';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from '../../locales/en-GB.json';
import { PasskeyList } from './passkey-list';

afterEach(cleanup);

const LAPTOP = { id: 'AAAA', name: 'Work laptop', createdAt: Date.UTC(2026, 0, 5), lastUsedAt: null };

/** The list, alone or (`withHost`) with the page's "Confirm it's you" host as the passkey page mounts it. */
async function renderList(answers: Parameters<typeof stubGateway>[0], withHost = false) {
  const gateway = stubGateway({ Devices: () => Response.json({ devices: [LAPTOP] }), ...answers });
  const ui = withHost ? (
    <>
      <PasskeyList />
      <ConfirmItsYouHere namespace="mfe-devices" returnUrl="/account/registerdevice" />
    </>
  ) : (
    <PasskeyList />
  );
  await renderWithProviders(ui, {
    path: '/account/registerdevice',
    fetch: gateway.fetch,
    resources: { 'en-GB': { 'mfe-devices': enGB } },
  });
  return gateway.calls;
}

describe('PasskeyList', () => {
  it('lists the passkeys with when they were added and last used, and renames one', async () => {
    const calls = await renderList({
      RenameDevice: () => Response.json({ devices: [{ ...LAPTOP, name: 'Old laptop' }] }),
    });
    expect(await screen.findByText('Work laptop')).toBeTruthy();
    expect(screen.getByText('Added 5 Jan 2026 · not used yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    fireEvent.change(screen.getByLabelText('New name for Work laptop'), { target: { value: 'Old laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Old laptop')).toBeTruthy();
    expect(calls.find((c) => c.call === 'RenameDevice')?.body).toEqual({ id: 'AAAA', name: 'Old laptop' });
  });

  describe('without a recent sign-in (S21): "Confirm it\'s you" in place (issue 49, ADR 0045)', () => {
    const refused = () =>
      Response.json({ title: 'x', errors: { '': ['recentSignInRequired'] } }, { status: 403 });

    /** RenameDevice refused until the password was confirmed, then done; what was asked, in order. */
    async function renderRefusingRename(password = 'right password') {
      let confirmed = false;
      const calls = await renderList(
        {
          RenameDevice: () =>
            confirmed ? Response.json({ devices: [{ ...LAPTOP, name: 'Old laptop' }] }) : refused(),
          ConfirmItsYouView: () => Response.json({ password: true, passkey: false, secondFactor: [] }),
          ConfirmItsYou: ({ body }) => {
            if ((body as { password?: string }).password !== password)
              return Response.json(
                { title: 'x', errors: { password: ['currentPasswordIncorrect'] } },
                { status: 400 },
              );
            confirmed = true;
            return Response.json({ confirmed: true });
          },
        },
        true,
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
      fireEvent.change(screen.getByLabelText('New name for Work laptop'), {
        target: { value: 'Old laptop' },
      });
      fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
      return calls;
    }

    it('asks for the password in a dialog, then sends the same rename again with the name typed', async () => {
      const calls = await renderRefusingRename();
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
      expect(dialog.textContent).toContain(
        'For your security, confirm it’s you before you change your passkeys.',
      );
      expect(screen.queryByRole('button', { name: 'Sign in again' })).toBeNull();
      fireEvent.change(await within(dialog).findByLabelText('Password'), {
        target: { value: 'right password' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Old laptop')).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.getByTestId('devices-status').textContent).toBe(
        'Saved: the passkey is now called ‘Old laptop’.',
      );
      const renames = calls.filter((c) => c.call === 'RenameDevice');
      expect(renames.map((c) => c.body)).toEqual([
        { id: 'AAAA', name: 'Old laptop' },
        { id: 'AAAA', name: 'Old laptop' },
      ]);
      expect(calls.find((c) => c.call === 'ConfirmItsYou')?.body).toEqual({ password: 'right password' });
    });

    it('keeps the dialog open with the error for a wrong password, and renames nothing', async () => {
      const calls = await renderRefusingRename();
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
      fireEvent.change(await within(dialog).findByLabelText('Password'), { target: { value: 'wrong' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await within(dialog).findByText('The current password is incorrect.')).toBeTruthy();
      expect(calls.filter((c) => c.call === 'RenameDevice')).toHaveLength(1);
      expect(screen.getByText('Work laptop')).toBeTruthy();
    });

    it.each([
      ['403 recentSignInRequired', 403, 'recentSignInRequired'],
      ['the older 400 reauthenticationRequired', 400, 'reauthenticationRequired'],
    ])(
      'cancelled (%s): says in the card that nothing changed, in words, and keeps the passkey',
      async (_name, status, code) => {
        const calls = await renderList(
          {
            RemoveDevice: () => Response.json({ title: 'x', errors: { '': [code] } }, { status }),
            ConfirmItsYouView: () => Response.json({ password: true, passkey: false, secondFactor: [] }),
          },
          true,
        );
        fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
        fireEvent.click(screen.getByRole('button', { name: 'Remove passkey' }));
        const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
        fireEvent.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
        expect(
          await screen.findByText('The change was not made because you did not confirm it’s you.'),
        ).toBeTruthy();
        expect(screen.queryByText('Forbidden')).toBeNull();
        expect(screen.getByText('Work laptop')).toBeTruthy();
        expect(calls.filter((c) => c.call === 'RemoveDevice')).toHaveLength(1);
        expect(calls.some((c) => c.call === 'SignInAgain')).toBe(false);
      },
    );
  });

  describe('"Confirm it\'s you" asks for every second factor of the account and the partner\'s captcha (issue 49)', () => {
    const refused = () =>
      Response.json({ title: 'x', errors: { '': ['recentSignInRequired'] } }, { status: 403 });

    /** A rename refused until confirmed; the password answers "second factor next" with `methods`. */
    async function renderSecondFactor(
      methods: string[],
      answers: Parameters<typeof stubGateway>[0] = {},
      view: Record<string, unknown> = {},
    ) {
      let confirmed = false;
      const calls = await renderList(
        {
          RenameDevice: () =>
            confirmed ? Response.json({ devices: [{ ...LAPTOP, name: 'Old laptop' }] }) : refused(),
          ConfirmItsYouView: () =>
            Response.json({
              password: true,
              passkey: false,
              secondFactor: methods,
              maskedPhone: '•••• 0123',
              maskedEmail: 'j•••@example.test',
              ...view,
            }),
          ConfirmItsYou: () => Response.json({ confirmed: false, secondFactor: methods }),
          ConfirmItsYouSecondFactor: ({ body }) => {
            const { code } = body as { code: string };
            if (code !== '246810')
              return Response.json({ title: 'x', errors: { code: ['invalidCode'] } }, { status: 400 });
            confirmed = true;
            return Response.json({ confirmed: true });
          },
          ...answers,
        },
        true,
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
      fireEvent.change(screen.getByLabelText('New name for Work laptop'), {
        target: { value: 'Old laptop' },
      });
      fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
      fireEvent.change(await within(dialog).findByLabelText('Password'), {
        target: { value: 'right password' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      return { calls, dialog };
    }

    it('texts a code only when Send is pressed, then confirms with it and renames', async () => {
      const { calls, dialog } = await renderSecondFactor(['sms', 'recoveryCode'], {
        ConfirmItsYouSendCode: () => Response.json({ sent: true, to: '•••• 0123', retryAfterSeconds: 30 }),
      });
      expect(await within(dialog).findByText('We’ll text a code to •••• 0123.')).toBeTruthy();
      expect(within(dialog).queryByLabelText(/Code from the text message/)).toBeNull();
      expect(calls.some((c) => c.call === 'ConfirmItsYouSendCode')).toBe(false);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
      expect(await within(dialog).findByText('We sent a code to •••• 0123.')).toBeTruthy();
      expect(calls.filter((c) => c.call === 'ConfirmItsYouSendCode').map((c) => c.body)).toEqual([
        { method: 'sms' },
      ]);
      // The next code waits: the resend button is off while the wait runs.
      expect(
        within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Send a new code' }).disabled,
      ).toBe(true);
      fireEvent.change(within(dialog).getByLabelText(/Code from the text message/), {
        target: { value: '246810' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Old laptop')).toBeTruthy();
      expect(calls.find((c) => c.call === 'ConfirmItsYouSecondFactor')?.body).toEqual({
        method: 'sms',
        code: '246810',
      });
      expect(calls.filter((c) => c.call === 'RenameDevice')).toHaveLength(2);
    });

    it('mails a PIN when asked and names the digits to type; other methods can be chosen instead', async () => {
      const { calls, dialog } = await renderSecondFactor(['authenticator', 'pin', 'recoveryCode'], {
        ConfirmItsYouSendCode: () =>
          Response.json({ sent: true, to: 'j•••@example.test', retryAfterSeconds: 0, positions: [2, 4, 7] }),
      });
      expect(await within(dialog).findByLabelText('Code from your authenticator app')).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Use a recovery code instead' })).toBeTruthy();
      expect(within(dialog).queryByRole('button', { name: /text message/ })).toBeNull();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Get a PIN by email' }));
      expect(
        await within(dialog).findByText(
          'We’ll email a PIN to j•••@example.test and ask for some of its digits.',
        ),
      ).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send PIN' }));
      const field = await within(dialog).findByLabelText('Enter digits 2, 4 and 7 of your PIN');
      fireEvent.change(field, { target: { value: '246810' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Old laptop')).toBeTruthy();
      expect(calls.find((c) => c.call === 'ConfirmItsYouSecondFactor')?.body).toEqual({
        method: 'pin',
        code: '246810',
      });
    });

    it("asks the partner's challenge before the password when the view says so, and sends it once solved", async () => {
      let confirmed = false;
      const gateway = stubGateway({
        Devices: () => Response.json({ devices: [LAPTOP] }),
        RenameDevice: () =>
          confirmed ? Response.json({ devices: [{ ...LAPTOP, name: 'Old laptop' }] }) : refused(),
        ConfirmItsYouView: () =>
          Response.json({
            password: true,
            passkey: false,
            secondFactor: [],
            captcha: { version: 1 },
            captchaRequired: true,
          }),
        ConfirmItsYou: () => {
          confirmed = true;
          return Response.json({ confirmed: true });
        },
      });
      const { store } = await renderWithProviders(
        <>
          <PasskeyList />
          <ConfirmItsYouHere namespace="mfe-devices" returnUrl="/account/registerdevice" />
        </>,
        {
          path: '/account/registerdevice',
          fetch: gateway.fetch,
          resources: { 'en-GB': { 'mfe-devices': enGB } },
        },
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
      fireEvent.change(screen.getByLabelText('New name for Work laptop'), {
        target: { value: 'Old laptop' },
      });
      fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
      fireEvent.change(await within(dialog).findByLabelText('Password'), {
        target: { value: 'right password' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
      const captcha = selectCaptcha(store.getState());
      expect(captcha).toMatchObject({ show: true, target: 'login', provider: { version: 1 } });
      expect(gateway.calls.some((c) => c.call === 'ConfirmItsYou')).toBe(false);
      act(() => completeCaptcha(store.dispatch, captcha.callbackId));
      expect(await screen.findByText('Old laptop')).toBeTruthy();
      expect(gateway.calls.find((c) => c.call === 'ConfirmItsYou')?.body).toEqual({
        password: 'right password',
      });
    });
  });

  it('removes a passkey only once the confirmation naming it is accepted, and says so in the card', async () => {
    const calls = await renderList({ RemoveDevice: () => Response.json({ devices: [] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the passkey ‘Work laptop’?' });
    expect(dialog.textContent).toContain('You will no longer be able to sign in with it.');
    expect(calls.some((c) => c.call === 'RemoveDevice')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Removed the passkey ‘Work laptop’.');
    expect(calls.filter((c) => c.call === 'RemoveDevice')).toHaveLength(1);
  });

  it('keeps the passkey when the confirmation is cancelled', async () => {
    const calls = await renderList({ RemoveDevice: () => Response.json({ devices: [] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('Work laptop')).toBeTruthy();
    expect(calls.some((c) => c.call === 'RemoveDevice')).toBe(false);
  });
});
