import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, type TwoFactorMethod, withReturnUrl } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Checkbox, FormErrors, Page, Stack } from 'shared-contracts/ui';
import { CodeField } from '../shared/code-field';
import { usePinChallenge, usePositionsText, useSmsCode } from '../shared/delivered-codes';
import { SmsStatus } from '../shared/sms-status';
import { useLoginWith2faMutation, useLoginWith2faViewQuery } from './two-factor.api';

/**
 * `/account/login/twofactor`: the second step of a sign-in (SPEC.md §2 "Two-factor method choice"). The methods
 * the account has set up are offered; the code ignores spaces and case; a recovery code is the way out.
 */
export function TwoFactorLoginPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const view = useLoginWith2faViewQuery();
  const methods = view.data?.methods ?? [];
  const [chosen, setChosen] = useState<TwoFactorMethod | undefined>(undefined);
  const method = chosen ?? methods[0] ?? 'authenticator';
  const [code, setCode] = useState('');
  const [rememberBrowser, setRememberBrowser] = useState(false);
  const [verify, { isLoading, error }] = useLoginWith2faMutation();
  // A text or a mail goes out only once its method is the one in use.
  const sms = useSmsCode(view.isSuccess && method === 'sms');
  const pin = usePinChallenge(view.isSuccess && method === 'pin');
  const positions = usePositionsText(pin.pin?.positions);
  const errors = useFormErrors(error ?? view.error ?? (method === 'sms' ? sms.error : pin.error));
  const label =
    method === 'pin' && pin.pin ? t('login2fa.pin.asked', { positions }) : t(`login2fa.codeLabel.${method}`);

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
            {methods.length > 1 ? (
              <fieldset className="hr-field" style={{ border: 0, padding: 0, margin: 0 }}>
                <legend className="hr-field__label">{t('login2fa.methodLegend')}</legend>
                {methods.map((m) => (
                  <label key={m} className="hr-checkbox">
                    <input
                      type="radio"
                      name="method"
                      value={m}
                      checked={method === m}
                      onChange={() => setChosen(m)}
                    />
                    {t(`methods.${m}`)}
                  </label>
                ))}
              </fieldset>
            ) : methods.length === 1 ? (
              <p>{t('login2fa.usingMethod', { method: t(`methods.${method}`) })}</p>
            ) : null}
            {method === 'sms' ? (
              <SmsStatus
                maskedPhone={sms.sent?.maskedPhone ?? view.data?.maskedPhone ?? null}
                sent={sms.sent?.sent === true}
                secondsLeft={sms.secondsLeft}
                busy={sms.isSending}
                onResend={() => void sms.resend()}
              />
            ) : null}
            {method === 'pin' ? (
              <div role="status" aria-live="polite">
                {pin.mailed === true ? (
                  <p>
                    {pin.resent
                      ? t('login2fa.pin.resent', { email: view.data?.maskedEmail ?? '' })
                      : t('login2fa.pin.sentTo', { email: view.data?.maskedEmail ?? '' })}
                  </p>
                ) : null}
                {pin.mailed === false ? <Alert kind="error">{t('login2fa.pin.notSent')}</Alert> : null}
              </div>
            ) : null}
            <CodeField
              key={method}
              label={label}
              value={code}
              onChange={setCode}
              errors={errors.field('code')}
              autoFocus
            />
            {view.data?.rememberBrowserAllowed ? (
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
            {method === 'pin' ? (
              <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
                <Button
                  variant="secondary"
                  disabled={pin.isBusy || !pin.pin}
                  onClick={() => void pin.reshuffle()}
                >
                  {t('login2fa.pin.reshuffle')}
                </Button>
                <Button variant="secondary" disabled={pin.isBusy} onClick={() => void pin.resend()}>
                  {t('login2fa.pin.resend')}
                </Button>
              </div>
            ) : null}
            <Link to={withReturnUrl('/account/login/recoverycode', returnUrl)}>
              {t('login2fa.useRecoveryCode')}
            </Link>
            <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
