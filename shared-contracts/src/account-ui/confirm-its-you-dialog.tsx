import type { SerializedError } from '@reduxjs/toolkit';
import { useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf } from '../api/use-form-errors.js';
import type { ApiError } from '../protocol.js';
import type { CaptchaProvider } from '../captcha.schema.js';
import {
  CONFIRM_ITS_YOU_SENT_CODES,
  type ConfirmItsYouAnswer,
  type ConfirmItsYouCodeSent,
  type ConfirmItsYouSecondFactor,
  type ConfirmItsYouView,
} from '../security-centre.schema.js';
import { Button, FormErrors, Stack, TextField } from '../ui/index.js';
import {
  hasFormCode,
  isConfirmItsYouAsked,
  settleConfirmItsYou,
  subscribeConfirmItsYouHost,
} from './confirm-its-you.js';
import { Dialog, useDialogDescriptionId } from './dialog.js';

/**
 * The keys of the dialog's texts: the `confirmItsYou` object every page mounting it has in its namespace, in five
 * locales (`why` says what the page's changes are).
 */
export const CONFIRM_ITS_YOU_TEXT_KEYS = [
  'title',
  'why',
  'password',
  'continue',
  'cancel',
  'usePasskey',
  'secondFactorIntro',
  'authenticatorCode',
  'recoveryCode',
  'codeHint',
  'useRecoveryCode',
  'useAuthenticator',
  'useSms',
  'usePin',
  'smsCode',
  'smsWillSend',
  'smsSend',
  'smsSentTo',
  'smsResend',
  'smsWait',
  'pinCode',
  'pinWillSend',
  'pinSend',
  'pinSentTo',
  'pinResend',
  'signInAgainNeeded',
  'signInAgain',
] as const;
/** A text of the dialog. */
export type ConfirmItsYouTextKey = (typeof CONFIRM_ITS_YOU_TEXT_KEYS)[number];
/**
 * The dialog's texts in the page's language, with the values of their placeholders (`{{phone}}`, `{{email}}`,
 * `{{seconds}}`, `{{positions}}`).
 */
export type ConfirmItsYouText = (
  key: ConfirmItsYouTextKey,
  values?: Record<string, string | number>,
) => string;

/** What a confirmation step answered: the answer, or the call's error (translated by its codes). */
export type ConfirmItsYouResult = { answer: ConfirmItsYouAnswer } | { error: ApiError | SerializedError };

/** What sending a code answered: where it went, or the call's error. */
export type ConfirmItsYouSendResult = { sent: ConfirmItsYouCodeSent } | { error: ApiError | SerializedError };

/** A second factor whose code goes out on request. */
type SentCode = (typeof CONFIRM_ITS_YOU_SENT_CODES)[number];

/** The calls the dialog makes, given by the page (its API endpoints are injected where the store is). */
export interface ConfirmItsYouActions {
  /** `ConfirmItsYouView`. */
  view(): Promise<ConfirmItsYouView>;
  /** `ConfirmItsYou {password}`. */
  password(password: string): Promise<ConfirmItsYouResult>;
  /** `ConfirmItsYouSendCode`: a texted code or a mailed PIN, when the person pressed Send. */
  sendCode(method: SentCode): Promise<ConfirmItsYouSendResult>;
  /** `ConfirmItsYouSecondFactor`. */
  secondFactor(method: ConfirmItsYouSecondFactor, code: string): Promise<ConfirmItsYouResult>;
  /** `AssertionOptions`, the device's assertion, then `ConfirmItsYou {passkey}`; rejects when the device refused. */
  passkey(): Promise<ConfirmItsYouResult>;
  /** The partner's challenge (the shell shows it, ADR 0014); `onSolved` runs once it is solved. */
  captcha(provider: CaptchaProvider | undefined, onSolved: () => void): void;
  /** `SignInAgain`: the way out for an account the dialog cannot confirm (ends the session: ADR 0036). */
  signInAgain(): Promise<void>;
}

/** Props of {@link ConfirmItsYouHost}. */
export interface ConfirmItsYouHostProps {
  text: ConfirmItsYouText;
  actions: ConfirmItsYouActions;
}

/**
 * The host of "Confirm it's you" (issue 49, ADR 0045): mounted once by a page whose changes may need a recent sign-in,
 * it opens the modal dialog whenever such a change was refused ({@link confirmedChange}) and answers it: confirmed
 * (the change is sent again) or cancelled (the change's card says it was not made).
 */
export function ConfirmItsYouHost({ text, actions }: ConfirmItsYouHostProps) {
  const asked = useSyncExternalStore(subscribeConfirmItsYouHost, isConfirmItsYouAsked, () => false);
  return (
    <Dialog
      open={asked}
      title={text('title')}
      onClose={() => settleConfirmItsYou(false)}
      testId="confirm-its-you"
    >
      <ConfirmItsYouForm text={text} actions={actions} />
    </Dialog>
  );
}

type Step = { kind: 'first' } | { kind: 'secondFactor'; methods: ConfirmItsYouSecondFactor[] };

/** Where a code of a method went, and when another may be asked for (epoch ms). */
interface Sent {
  to: string | null;
  positions?: number[] | undefined;
  resendAt: number;
}

const isSentCode = (method: ConfirmItsYouSecondFactor): method is SentCode =>
  (CONFIRM_ITS_YOU_SENT_CODES as readonly string[]).includes(method);

/** Whole seconds from now until `at` (never below zero). */
const secondsUntil = (at: number, now: number) => Math.max(0, Math.ceil((at - now) / 1000));

/** Ticks once a second while `until` is in the future; answers the current time. */
function useNow(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return now;
}

function ConfirmItsYouForm({ text, actions }: ConfirmItsYouHostProps) {
  const { t, i18n } = useTranslation();
  const descriptionId = useDialogDescriptionId();
  const [view, setView] = useState<ConfirmItsYouView | undefined>(undefined);
  const [step, setStep] = useState<Step>({ kind: 'first' });
  const [method, setMethod] = useState<ConfirmItsYouSecondFactor>('authenticator');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'password' | 'passkey' | 'code' | 'send' | 'signInAgain' | undefined>(
    undefined,
  );
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [passkeyFailed, setPasskeyFailed] = useState(false);
  const [sent, setSent] = useState<Partial<Record<SentCode, Sent>>>({});
  const current = isSentCode(method) ? sent[method] : undefined;
  const now = useNow(current?.resendAt ?? 0);

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
      if ('error' in result) {
        // The partner's captcha guards the password (ADR 0014): solved, the same password is sent again.
        if (which === 'password' && hasFormCode(result.error, ['captchaRequired'])) return askCaptcha();
        return setError(result.error);
      }
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

  const sendPassword = () => void run('password', () => actions.password(password));
  function askCaptcha() {
    actions.captcha(view?.captcha, sendPassword);
  }

  /** Send (or send again) the code of `which`: only ever on the person's press. */
  async function send(which: SentCode) {
    if (busy) return;
    setBusy('send');
    setError(undefined);
    try {
      const result = await actions.sendCode(which);
      if ('error' in result) return setError(result.error);
      const { to, positions, retryAfterSeconds } = result.sent;
      setSent((before) => ({
        ...before,
        [which]: {
          to,
          positions: positions ?? before[which]?.positions,
          resendAt: Date.now() + retryAfterSeconds * 1000,
        },
      }));
      if (result.sent.sent) setCode('');
    } finally {
      setBusy(undefined);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'first') {
      if (view?.captchaRequired) askCaptcha();
      else sendPassword();
    } else void run('code', () => actions.secondFactor(method, code));
  };
  const cancel = (
    <Button variant="secondary" type="button" onClick={() => settleConfirmItsYou(false)}>
      {text('cancel')}
    </Button>
  );
  const signInAgain = (
    <Stack>
      <p>{text('signInAgainNeeded')}</p>
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
          {text('signInAgain')}
        </Button>
      </div>
    </Stack>
  );

  if (!view) return <p role="status">{text('why')}</p>;

  if (step.kind === 'secondFactor') {
    const others = step.methods.filter((candidate) => candidate !== method);
    const useOther: Record<ConfirmItsYouSecondFactor, ConfirmItsYouTextKey> = {
      authenticator: 'useAuthenticator',
      sms: 'useSms',
      pin: 'usePin',
      recoveryCode: 'useRecoveryCode',
    };
    const phone = current?.to ?? view.maskedPhone ?? '';
    const email = current?.to ?? view.maskedEmail ?? '';
    const wait = current ? secondsUntil(current.resendAt, now) : 0;
    // A texted code or PIN is typed once it was sent; the authenticator's and a recovery code at once.
    const codeShown = !isSentCode(method) || current !== undefined;
    const positions = current?.positions
      ? new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(current.positions.map(String))
      : '';
    const label =
      method === 'recoveryCode'
        ? text('recoveryCode')
        : method === 'sms'
          ? text('smsCode')
          : method === 'pin'
            ? text('pinCode', { positions })
            : text('authenticatorCode');
    return (
      <form onSubmit={submit} noValidate>
        <Stack>
          <p id={descriptionId}>{text('secondFactorIntro')}</p>
          <FormErrors messages={form} />
          {step.methods.length === 0 ? (
            signInAgain
          ) : (
            <>
              {method === 'sms' || method === 'pin' ? (
                <div className="hr-confirm-its-you__send" data-testid={`confirm-its-you-${method}`}>
                  <p role="status">
                    {method === 'sms'
                      ? text(current ? 'smsSentTo' : 'smsWillSend', { phone })
                      : text(current ? 'pinSentTo' : 'pinWillSend', { email })}
                  </p>
                  <Button
                    variant={current ? 'link' : 'secondary'}
                    type="button"
                    loading={busy === 'send'}
                    disabled={wait > 0}
                    onClick={() => void send(method)}
                  >
                    {method === 'sms'
                      ? text(current ? 'smsResend' : 'smsSend')
                      : text(current ? 'pinResend' : 'pinSend')}
                  </Button>
                  {wait > 0 ? <p className="hr-field__hint">{text('smsWait', { seconds: wait })}</p> : null}
                </div>
              ) : null}
              {codeShown ? (
                <TextField
                  key={method}
                  label={label}
                  hint={method === 'pin' ? undefined : text('codeHint')}
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
              ) : null}
              {others.map((other) => (
                <Button
                  key={other}
                  variant="link"
                  type="button"
                  onClick={() => {
                    setMethod(other);
                    setCode('');
                    setError(undefined);
                  }}
                >
                  {text(useOther[other])}
                </Button>
              ))}
              <div className="hr-dialog__actions">
                {cancel}
                {codeShown ? (
                  <Button type="submit" loading={busy === 'code'}>
                    {text('continue')}
                  </Button>
                ) : null}
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
        <p id={descriptionId}>{text('why')}</p>
        <FormErrors messages={form} />
        {view.password ? (
          <>
            <TextField
              label={text('password')}
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
                {text('usePasskey')}
              </Button>
            ) : null}
            <div className="hr-dialog__actions">
              {cancel}
              <Button type="submit" loading={busy === 'password'}>
                {text('continue')}
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
              {text('usePasskey')}
            </Button>
          </div>
        ) : (
          signInAgain
        )}
      </Stack>
    </form>
  );
}
