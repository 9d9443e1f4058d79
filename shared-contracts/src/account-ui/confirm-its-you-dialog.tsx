import type { SerializedError } from '@reduxjs/toolkit';
import { useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf } from '../api/use-form-errors.js';
import type { ApiError } from '../protocol.js';
import type {
  ConfirmItsYouAnswer,
  ConfirmItsYouSecondFactor,
  ConfirmItsYouView,
} from '../security-centre.schema.js';
import { Button, FormErrors, Stack, TextField } from '../ui/index.js';
import { isConfirmItsYouAsked, settleConfirmItsYou, subscribeConfirmItsYouHost } from './confirm-its-you.js';
import { Dialog, useDialogDescriptionId } from './dialog.js';

/** The dialog's texts, already translated by the page that mounts it (its own namespace, five locales). */
export interface ConfirmItsYouStrings {
  /** "Confirm it's you" */
  title: string;
  /** "For your security, confirm it's you to make this change." */
  why: string;
  password: string;
  continue: string;
  cancel: string;
  usePasskey: string;
  /** "Your account uses two-step verification: enter a code to finish." */
  secondFactorIntro: string;
  authenticatorCode: string;
  recoveryCode: string;
  /** Hint of the code fields: "Codes ignore spaces and case." */
  codeHint: string;
  useRecoveryCode: string;
  useAuthenticator: string;
  /** Why this account cannot confirm here (no password or factor the dialog can ask): sign in again instead. */
  signInAgainNeeded: string;
  signInAgain: string;
}

/** What a confirmation step answered: the answer, or the call's error (translated by its codes). */
export type ConfirmItsYouResult = { answer: ConfirmItsYouAnswer } | { error: ApiError | SerializedError };

/** The calls the dialog makes, given by the page (its API endpoints are injected where the store is). */
export interface ConfirmItsYouActions {
  /** `ConfirmItsYouView`. */
  view(): Promise<ConfirmItsYouView>;
  /** `ConfirmItsYou {password}`. */
  password(password: string): Promise<ConfirmItsYouResult>;
  /** `ConfirmItsYouSecondFactor`. */
  secondFactor(method: ConfirmItsYouSecondFactor, code: string): Promise<ConfirmItsYouResult>;
  /** `AssertionOptions`, the device's assertion, then `ConfirmItsYou {passkey}`; rejects when the device refused. */
  passkey(): Promise<ConfirmItsYouResult>;
  /** `SignInAgain`: the way out for an account the dialog cannot confirm (ends the session: ADR 0036). */
  signInAgain(): Promise<void>;
}

/** Props of {@link ConfirmItsYouHost}. */
export interface ConfirmItsYouHostProps {
  strings: ConfirmItsYouStrings;
  actions: ConfirmItsYouActions;
}

/**
 * The host of "Confirm it's you" (issue 49, ADR 0045): mounted once by a page whose changes may need a recent sign-in,
 * it opens the modal dialog whenever such a change was refused ({@link confirmedChange}) and answers it: confirmed
 * (the change is sent again) or cancelled (the change's card says it was not made).
 */
export function ConfirmItsYouHost({ strings, actions }: ConfirmItsYouHostProps) {
  const asked = useSyncExternalStore(subscribeConfirmItsYouHost, isConfirmItsYouAsked, () => false);
  return (
    <Dialog
      open={asked}
      title={strings.title}
      onClose={() => settleConfirmItsYou(false)}
      testId="confirm-its-you"
    >
      <ConfirmItsYouForm strings={strings} actions={actions} />
    </Dialog>
  );
}

type Step = { kind: 'first' } | { kind: 'secondFactor'; methods: ConfirmItsYouSecondFactor[] };

function ConfirmItsYouForm({ strings, actions }: ConfirmItsYouHostProps) {
  const { t } = useTranslation();
  const descriptionId = useDialogDescriptionId();
  const [view, setView] = useState<ConfirmItsYouView | undefined>(undefined);
  const [step, setStep] = useState<Step>({ kind: 'first' });
  const [method, setMethod] = useState<ConfirmItsYouSecondFactor>('authenticator');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'password' | 'passkey' | 'code' | 'signInAgain' | undefined>(undefined);
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [passkeyFailed, setPasskeyFailed] = useState(false);

  useEffect(() => {
    let live = true;
    actions.view().then(
      (answer) => live && setView(answer),
      // Without the view the password is still worth a try: the server says what is missing.
      () => live && setView({ password: true, passkey: false, secondFactor: [] }),
    );
    return () => {
      live = false;
    };
  }, [actions]);

  const errors = formErrorsOf(t, error);
  const form = passkeyFailed ? [...errors.form, t('errors:secureSignInFailed')] : errors.form;

  async function run(which: NonNullable<typeof busy>, call: () => Promise<ConfirmItsYouResult>) {
    if (busy) return;
    setBusy(which);
    setError(undefined);
    setPasskeyFailed(false);
    try {
      const result = await call();
      if ('error' in result) return setError(result.error);
      if (result.answer.confirmed) return settleConfirmItsYou(true);
      const methods = result.answer.secondFactor ?? [];
      setStep({ kind: 'secondFactor', methods });
      setMethod(methods[0] ?? 'authenticator');
      setCode('');
    } catch {
      // The device refused or the person cancelled it: quiet, as at sign-in (SPEC.md §4).
      setPasskeyFailed(true);
    } finally {
      setBusy(undefined);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'first') void run('password', () => actions.password(password));
    else void run('code', () => actions.secondFactor(method, code));
  };
  const cancel = (
    <Button variant="secondary" type="button" onClick={() => settleConfirmItsYou(false)}>
      {strings.cancel}
    </Button>
  );
  const signInAgain = (
    <Stack>
      <p>{strings.signInAgainNeeded}</p>
      <div className="hr-dialog__actions">
        {cancel}
        <Button
          type="button"
          loading={busy === 'signInAgain'}
          onClick={() => {
            setBusy('signInAgain');
            void actions.signInAgain().finally(() => setBusy(undefined));
          }}
        >
          {strings.signInAgain}
        </Button>
      </div>
    </Stack>
  );

  if (!view) return <p role="status">{strings.why}</p>;

  if (step.kind === 'secondFactor') {
    const other = step.methods.find((candidate) => candidate !== method);
    return (
      <form onSubmit={submit} noValidate>
        <Stack>
          <p id={descriptionId}>{strings.secondFactorIntro}</p>
          <FormErrors messages={form} />
          {step.methods.length === 0 ? (
            signInAgain
          ) : (
            <>
              <TextField
                key={method}
                label={method === 'recoveryCode' ? strings.recoveryCode : strings.authenticatorCode}
                hint={strings.codeHint}
                value={code}
                autoFocus
                required
                autoComplete="one-time-code"
                inputMode={method === 'recoveryCode' ? 'text' : 'numeric'}
                spellCheck={false}
                maxLength={64}
                errors={errors.field('code')}
                onChange={(event) => setCode(event.target.value)}
              />
              {other ? (
                <Button
                  variant="link"
                  type="button"
                  onClick={() => {
                    setMethod(other);
                    setCode('');
                    setError(undefined);
                  }}
                >
                  {other === 'recoveryCode' ? strings.useRecoveryCode : strings.useAuthenticator}
                </Button>
              ) : null}
              <div className="hr-dialog__actions">
                {cancel}
                <Button type="submit" loading={busy === 'code'}>
                  {strings.continue}
                </Button>
              </div>
            </>
          )}
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <p id={descriptionId}>{strings.why}</p>
        <FormErrors messages={form} />
        {view.password ? (
          <>
            <TextField
              label={strings.password}
              type="password"
              value={password}
              autoFocus
              required
              autoComplete="current-password"
              maxLength={1024}
              errors={errors.field('password')}
              onChange={(event) => setPassword(event.target.value)}
            />
            {view.passkey ? (
              <Button
                variant="secondary"
                type="button"
                loading={busy === 'passkey'}
                onClick={() => void run('passkey', () => actions.passkey())}
              >
                {strings.usePasskey}
              </Button>
            ) : null}
            <div className="hr-dialog__actions">
              {cancel}
              <Button type="submit" loading={busy === 'password'}>
                {strings.continue}
              </Button>
            </div>
          </>
        ) : view.passkey ? (
          <div className="hr-dialog__actions">
            {cancel}
            <Button
              type="button"
              autoFocus
              loading={busy === 'passkey'}
              onClick={() => void run('passkey', () => actions.passkey())}
            >
              {strings.usePasskey}
            </Button>
          </div>
        ) : (
          signInAgain
        )}
      </Stack>
    </form>
  );
}
