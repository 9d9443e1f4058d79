import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, type TwoFactorMethod, withReturnUrl } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Checkbox, FormErrors, Page, Stack } from 'shared-contracts/ui';
import { CodeField } from '../shared/code-field';
import { usePinChallenge, usePositionsText, useSmsCode } from '../shared/delivered-codes';
import { ResendCode, SmsSentStatus } from '../shared/sms-status';
import { useLoginWith2faMutation, useLoginWith2faViewQuery } from './two-factor.api';

/**
 * The method the page opens with: the account's default, chosen in the security centre, which the server lists
 * first (LoginWith2FAView; issue 49). Opening on it sends nothing: a text or a PIN goes out only on "Send".
 */
export function defaultMethod(methods: readonly TwoFactorMethod[]): TwoFactorMethod {
  return methods[0] ?? 'authenticator';
}

/**
 * `/account/login/twofactor`: the second step of a sign-in (SPEC.md §2 "Two-factor method choice"). It opens on one
 * method (see {@link defaultMethod}) and offers the others under "Use another method". Nothing is texted or mailed
 * when the page opens (issue 43): the SMS code and the emailed PIN go out only on the visitor's "Send", and a new
 * one is asked for by a quiet link under the code field. A recovery code is the way out.
 */
export function TwoFactorLoginPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const otherMethodsId = useId();
  const view = useLoginWith2faViewQuery();
  const methods = view.data?.methods ?? [];
  const [chosen, setChosen] = useState<TwoFactorMethod | undefined>(undefined);
  const method = chosen ?? defaultMethod(methods);
  const [code, setCode] = useState('');
  const [rememberBrowser, setRememberBrowser] = useState(false);
  const [verify, { isLoading, error, reset }] = useLoginWith2faMutation();
  const sms = useSmsCode();
  // The PIN is mailed once this turns true: on "Send PIN", never on opening the page.
  const [pinAsked, setPinAsked] = useState(false);
  const pin = usePinChallenge(pinAsked);
  const positions = usePositionsText(pin.pin?.positions);
  const errors = useFormErrors(
    error ?? view.error ?? (method === 'sms' ? sms.error : method === 'pin' ? pin.error : undefined),
  );
  const label =
    method === 'pin' && pin.pin ? t('login2fa.pin.asked', { positions }) : t(`login2fa.codeLabel.${method}`);
  // A code can be typed once there is one: the app's at once, a text or a PIN once it was sent.
  const codeExpected =
    method === 'authenticator' ||
    (method === 'sms' && sms.sent !== undefined) ||
    (method === 'pin' && pin.mailed === true);
  const others = methods.filter((m) => m !== method);

  const switchTo = (next: TwoFactorMethod) => {
    setChosen(next);
    setCode('');
    reset();
  };

  const sendPin = () => {
    if (pinAsked) void pin.resend();
    else setPinAsked(true);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A 209 is followed by the base query (the next step, or the application); a 400 fills the errors.
    await verify({ method, code, ...(rememberBrowser ? { rememberBrowser } : {}) });
  };

  return (
    <Page title={t('routes.loginTwoFactor')} pageId="login-twofactor">
      <Card>
        <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <p>{t('login2fa.intro')}</p>
            <FormErrors messages={errors.form} />
            {view.isLoading ? <p role="status">{t('common.loading')}</p> : null}
            {view.isSuccess ? <p>{t('login2fa.usingMethod', { method: t(`methods.${method}`) })}</p> : null}
            {view.isSuccess && method === 'sms' ? (
              sms.sent ? (
                <SmsSentStatus maskedPhone={sms.sent.maskedPhone} sent={sms.sent.sent} />
              ) : (
                <>
                  {view.data.maskedPhone ? (
                    <p>{t('login2fa.sms.willSend', { phone: view.data.maskedPhone })}</p>
                  ) : null}
                  <Button loading={sms.isSending} onClick={() => void sms.send()}>
                    {t('login2fa.sms.send')}
                  </Button>
                </>
              )
            ) : null}
            {view.isSuccess && method === 'pin' ? (
              <>
                <div role="status" aria-live="polite">
                  {pin.mailed === true ? (
                    <p>
                      {pin.resent
                        ? t('login2fa.pin.resent', { email: view.data.maskedEmail ?? '' })
                        : t('login2fa.pin.sentTo', { email: view.data.maskedEmail ?? '' })}
                    </p>
                  ) : null}
                  {pin.mailed === false ? <Alert kind="error">{t('login2fa.pin.notSent')}</Alert> : null}
                </div>
                {pin.mailed !== true ? (
                  <>
                    <p>{t('login2fa.pin.willSend', { email: view.data.maskedEmail ?? '' })}</p>
                    <Button loading={pin.isBusy} onClick={sendPin}>
                      {t('login2fa.pin.send')}
                    </Button>
                  </>
                ) : null}
              </>
            ) : null}
            {view.isSuccess && codeExpected ? (
              <>
                <CodeField
                  key={method}
                  label={label}
                  value={code}
                  onChange={setCode}
                  errors={errors.field('code')}
                  hint={t('login2fa.codeHint')}
                  autoFocus
                />
                {method === 'sms' ? (
                  <ResendCode
                    label={t('login2fa.sms.resend')}
                    secondsLeft={sms.secondsLeft}
                    busy={sms.isSending}
                    onResend={() => void sms.send()}
                  />
                ) : null}
                {method === 'pin' ? (
                  <>
                    <p className="hr-fine-print">
                      <Button
                        variant="link"
                        disabled={pin.isBusy || !pin.pin}
                        onClick={() => void pin.reshuffle()}
                      >
                        {t('login2fa.pin.reshuffle')}
                      </Button>
                    </p>
                    <ResendCode
                      label={t('login2fa.pin.resend')}
                      busy={pin.isBusy}
                      onResend={() => void pin.resend()}
                    />
                  </>
                ) : null}
                {view.data.rememberBrowserAllowed ? (
                  <Checkbox
                    label={t('login2fa.rememberBrowser')}
                    name="rememberBrowser"
                    checked={rememberBrowser}
                    onChange={(event) => setRememberBrowser(event.target.checked)}
                  />
                ) : null}
                <Button type="submit" loading={isLoading}>
                  {isLoading ? t('login2fa.verifying') : t('login2fa.submit')}
                </Button>
              </>
            ) : null}
            <div role="group" aria-labelledby={otherMethodsId}>
              <p id={otherMethodsId}>{t('login2fa.otherMethods')}</p>
              <ul
                className="hr-list-plain"
                style={{
                  display: 'flex',
                  flexDirection: 'column',
                  gap: '0.5rem',
                  marginBlockStart: '0.5rem',
                }}
              >
                {others.map((m) => (
                  <li key={m}>
                    <Button variant="link" onClick={() => switchTo(m)}>
                      {t(`login2fa.useMethod.${m}`)}
                    </Button>
                  </li>
                ))}
                <li>
                  <Link to={withReturnUrl('/account/login/recoverycode', returnUrl)}>
                    {t('login2fa.useRecoveryCode')}
                  </Link>
                </li>
              </ul>
            </div>
            <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
