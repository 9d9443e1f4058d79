import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  returnUrlOf,
  type CodeSent,
  type Setup2faView,
  type TwoFactorMethod,
  withReturnUrl,
} from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Checkbox, FormErrors, Page, Stack, TextField } from 'shared-contracts/ui';
import { RecoveryCodeList } from '../recovery-codes/recovery-code-list';
import { useRecoveryCodeSet } from '../recovery-codes/use-recovery-code-set';
import {
  nextSendAt,
  usePinChallenge,
  usePositionsText,
  useSecondsUntil,
} from '../two-factor/delivered-codes';
import { SmsStatus } from '../two-factor/two-factor-page';
import {
  useEnableTwoFactorMutation,
  useGeneratePhoneVerificationMutation,
  useSetup2faViewQuery,
  useValidate2faSetupCodeMutation,
} from '../two-factor/two-factor.api';
import { CodeField } from '../shared-code-field';

/** The wizard's steps, in order (ADR 0008): choose, set up and confirm, recovery codes, done. */
const STEPS = ['choose', 'setup', 'codes', 'done'] as const;
type WizardStep = (typeof STEPS)[number];

/**
 * `/account/setup-twofactor`: the set-up wizard, as a sign-in step when 2FA is required and from a signed-in
 * account (S21: a recent full sign-in). Each step's heading takes the focus, so keyboard and screen-reader users
 * start at the new content.
 */
export function SetupTwoFactorPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const view = useSetup2faViewQuery();
  const [step, setStep] = useState<WizardStep>('choose');
  const [method, setMethod] = useState<TwoFactorMethod>('authenticator');
  const [recoveryCodesId, setRecoveryCodesId] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);
  const viewErrors = useFormErrors(view.error);
  const confirmed = (id: string) => {
    setRecoveryCodesId(id);
    setStep('codes');
  };
  const index = STEPS.indexOf(step);

  return (
    <Page title={t('routes.setupTwoFactor')} pageId="setup-twofactor">
      <Card>
        <Stack>
          <p className="hr-fine-print" aria-live="polite">
            {t('setup.stepOf', { n: index + 1, total: STEPS.length })}
          </p>
          <h2 ref={heading} tabIndex={-1} style={{ margin: 0, fontSize: '1.25rem' }}>
            {step === 'setup' ? t(`setup.${method}.title`) : t(`setup.${step}.title`)}
          </h2>
          {viewErrors.form.length > 0 ? (
            <Alert kind="error">
              {viewErrors.form.map((message) => (
                <div key={message}>{message}</div>
              ))}
              <div>
                <Link
                  to={withReturnUrl('/account/login', withReturnUrl('/account/setup-twofactor', returnUrl))}
                >
                  {t('setup.signInAgain')}
                </Link>
              </div>
            </Alert>
          ) : null}
          {view.isLoading ? <p role="status">{t('common.loading')}</p> : null}
          {view.data && step === 'choose' ? (
            <ChooseMethod
              view={view.data}
              method={method}
              onChange={setMethod}
              onNext={() => setStep('setup')}
            />
          ) : null}
          {view.data && step === 'setup' && method === 'authenticator' ? (
            <AuthenticatorSetup view={view.data} onBack={() => setStep('choose')} onConfirmed={confirmed} />
          ) : null}
          {view.data && step === 'setup' && method === 'sms' ? (
            <SmsSetup onBack={() => setStep('choose')} onConfirmed={confirmed} />
          ) : null}
          {view.data && step === 'setup' && method === 'pin' ? (
            <PinSetup view={view.data} onBack={() => setStep('choose')} onConfirmed={confirmed} />
          ) : null}
          {step === 'codes' ? (
            <CodesStep
              id={recoveryCodesId}
              accountName={view.data?.authenticator.accountName}
              onNext={() => setStep('done')}
            />
          ) : null}
          {step === 'done' ? <DoneStep returnUrl={returnUrl} method={method} /> : null}
        </Stack>
      </Card>
    </Page>
  );
}

function ChooseMethod({
  view,
  method,
  onChange,
  onNext,
}: {
  view: Setup2faView;
  method: TwoFactorMethod;
  onChange: (method: TwoFactorMethod) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <Stack>
      <p>{view.configured.length > 0 ? t('setup.choose.replaces') : t('setup.choose.intro')}</p>
      <fieldset className="hr-field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="hr-field__label">{t('setup.choose.legend')}</legend>
        {view.methods.map((m) => (
          <label key={m} className="hr-checkbox">
            <input type="radio" name="method" value={m} checked={method === m} onChange={() => onChange(m)} />
            {t(`methods.${m}`)}
          </label>
        ))}
      </fieldset>
      <Button onClick={onNext}>{t('setup.next')}</Button>
    </Stack>
  );
}

function AuthenticatorSetup({
  view,
  onBack,
  onConfirmed,
}: {
  view: Setup2faView;
  onBack: () => void;
  onConfirmed: (recoveryCodesId: string) => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  const [code, setCode] = useState('');
  const [validate, { isLoading, error }] = useValidate2faSetupCodeMutation();
  const errors = useFormErrors(error);
  const { authenticator } = view;
  // The server renders the QR code; as an image it cannot run anything, whatever the SVG held (CSP allows data:).
  const qrSource = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(authenticator.qrSvg)}`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'authenticator', code });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        <p>{t('setup.authenticator.scan')}</p>
        <img
          src={qrSource}
          alt={t('setup.authenticator.qrAlt')}
          width={200}
          height={200}
          style={{ background: '#fff', padding: '0.5rem', borderRadius: '0.5rem', alignSelf: 'center' }}
        />
        <p>{t('setup.authenticator.manual')}</p>
        <dl style={{ margin: 0 }}>
          <dt>{t('setup.authenticator.keyLabel')}</dt>
          <dd
            data-testid="totp-secret"
            translate="no"
            style={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: '1.1rem',
              margin: 0,
            }}
          >
            {authenticator.secret}
          </dd>
          <dt>{t('setup.authenticator.accountLabel')}</dt>
          <dd style={{ margin: 0 }}>
            {authenticator.issuer} ({authenticator.accountName})
          </dd>
        </dl>
        <FormErrors messages={errors.form} />
        <CodeField
          label={t('setup.authenticator.codeLabel')}
          value={code}
          onChange={setCode}
          errors={errors.field('code')}
        />
        <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
          <Button type="submit" loading={isLoading}>
            {t('setup.authenticator.confirm')}
          </Button>
          <Button variant="secondary" onClick={onBack}>
            {t('setup.back')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

/** Errors of a step's calls, as one alert. */

/** SMS: the phone number (international), a texted code to prove it, then the code typed back. */
function SmsSetup({
  onBack,
  onConfirmed,
}: {
  onBack: () => void;
  onConfirmed: (recoveryCodesId: string) => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<CodeSent | undefined>(undefined);
  const [until, setUntil] = useState<number | undefined>(undefined);
  const secondsLeft = useSecondsUntil(until);
  const [sendCode, sending] = useGeneratePhoneVerificationMutation();
  const [validate, validating] = useValidate2faSetupCodeMutation();
  const sendErrors = useFormErrors(sending.error);
  const errors = useFormErrors(validating.error);

  const onSend = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    const result = await sendCode({ phone });
    if (result.data) {
      if (result.data.sent || !sent) setSent(result.data);
      setUntil(nextSendAt(result.data));
    }
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'sms', code });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <Stack>
      <form method="post" onSubmit={(event) => void onSend(event)} noValidate>
        <Stack>
          <p>{t('setup.sms.intro')}</p>
          <FormErrors messages={sendErrors.form} />
          <TextField
            label={t('setup.sms.phoneLabel')}
            name="phone"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            errors={sendErrors.field('phone')}
            hint={t('setup.sms.phoneHint')}
            required
          />
          {sent ? null : (
            <Button type="submit" loading={sending.isLoading}>
              {t('setup.sms.send')}
            </Button>
          )}
        </Stack>
      </form>
      {sent ? (
        <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <SmsStatus
              maskedPhone={sent.maskedPhone}
              sent={sent.sent}
              secondsLeft={secondsLeft}
              busy={sending.isLoading}
              onResend={() => void onSend()}
            />
            <FormErrors messages={errors.form} />
            <CodeField
              label={t('setup.sms.codeLabel')}
              value={code}
              onChange={setCode}
              errors={errors.field('code')}
            />
            <Button type="submit" loading={validating.isLoading}>
              {t('setup.authenticator.confirm')}
            </Button>
          </Stack>
        </form>
      ) : null}
      <Button variant="secondary" onClick={onBack}>
        {t('setup.back')}
      </Button>
    </Stack>
  );
}

/** PIN by e-mail: a PIN mailed to the account's address; typing the asked digits proves the address is read. */
function PinSetup({
  view,
  onBack,
  onConfirmed,
}: {
  view: Setup2faView;
  onBack: () => void;
  onConfirmed: (recoveryCodesId: string) => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  const [started, setStarted] = useState(false);
  const pin = usePinChallenge(started);
  const positions = usePositionsText(pin.pin?.positions);
  const [code, setCode] = useState('');
  const [validate, validating] = useValidate2faSetupCodeMutation();
  const errors = useFormErrors(validating.error ?? pin.error);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await validate({ method: 'pin', code });
    if ('data' in result && result.data) onConfirmed(result.data.recoveryCodesId);
  };

  return (
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        <p>{t('setup.pin.intro', { email: view.maskedEmail ?? '' })}</p>
        <FormErrors messages={errors.form} />
        {!started ? <Button onClick={() => setStarted(true)}>{t('setup.pin.send')}</Button> : null}
        <div role="status" aria-live="polite">
          {pin.mailed === true ? <p>{t('login2fa.pin.sentTo', { email: view.maskedEmail ?? '' })}</p> : null}
          {pin.mailed === false ? <Alert kind="error">{t('login2fa.pin.notSent')}</Alert> : null}
        </div>
        {pin.pin ? (
          <>
            <CodeField
              label={t('login2fa.pin.asked', { positions })}
              value={code}
              onChange={setCode}
              errors={errors.field('code')}
            />
            <Button type="submit" loading={validating.isLoading}>
              {t('setup.authenticator.confirm')}
            </Button>
            <Button variant="secondary" disabled={pin.isBusy} onClick={() => void pin.resend()}>
              {t('login2fa.pin.resend')}
            </Button>
          </>
        ) : null}
        <Button variant="secondary" onClick={onBack}>
          {t('setup.back')}
        </Button>
      </Stack>
    </form>
  );
}

function CodesStep({
  id,
  accountName,
  onNext,
}: {
  id: string | undefined;
  accountName: string | undefined;
  onNext: () => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  const { data, error, isLoading } = useRecoveryCodeSet(id);
  const errors = useFormErrors(error);
  const [stored, setStored] = useState(false);
  return (
    <Stack>
      {isLoading ? <p role="status">{t('common.loading')}</p> : null}
      <FormErrors messages={errors.form} />
      {data ? <RecoveryCodeList codes={data.codes} accountName={accountName} /> : null}
      <Checkbox
        label={t('codes.stored')}
        name="stored"
        checked={stored}
        onChange={(event) => setStored(event.target.checked)}
      />
      <Button onClick={onNext} disabled={!stored && data !== undefined}>
        {t('common.continue')}
      </Button>
    </Stack>
  );
}

function DoneStep({ returnUrl, method }: { returnUrl: string; method: TwoFactorMethod }) {
  const { t } = useTranslation('mfe-mfa');
  const [enable, { isLoading, error }] = useEnableTwoFactorMutation();
  const errors = useFormErrors(error);
  return (
    <Stack>
      <Alert kind="success">{t('setup.done.message')}</Alert>
      <p>{t(`setup.done.intro.${method}`)}</p>
      <FormErrors messages={errors.form} />
      {/* The server finishes the sign-in (or returns to the account) and answers where to go: a 209. */}
      <Button loading={isLoading} onClick={() => void enable({ returnUrl })}>
        {t('setup.done.finish')}
      </Button>
    </Stack>
  );
}
