import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { returnUrlOf, type TwoFactorMethod, withReturnUrl } from 'shared-contracts';
import { navigateFull, useFormErrors } from 'shared-contracts/api';
import { Alert, Card, needsRecentSignIn, Page, SignInAgain, Stack } from 'shared-contracts/ui';
import { AuthenticatorSetup } from './authenticator-setup-step';
import { ChooseMethod } from './choose-method-step';
import { CodesStep } from './codes-step';
import { DoneStep } from './done-step';
import { PinSetup } from './pin-setup-step';
import { useSetup2faViewQuery, useSetupSignInAgainMutation } from './setup-two-factor.api';
import { SmsSetup } from './sms-setup-step';

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
  // S21: a signed-in person whose full sign-in is not recent signs in again and comes back to this wizard.
  const [signInAgain, signingIn] = useSetupSignInAgainMutation();
  const goSignInAgain = async () => {
    const result = await signInAgain({ returnUrl: withReturnUrl('/account/setup-twofactor', returnUrl) });
    if ('data' in result && result.data) navigateFull(result.data.redirect);
  };
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
          {needsRecentSignIn(view.error) ? (
            <SignInAgain
              message={t('setup.recentSignIn')}
              label={t('setup.signInAgain')}
              loading={signingIn.isLoading}
              urgent
              onSignInAgain={() => void goSignInAgain()}
            />
          ) : viewErrors.form.length > 0 ? (
            <Alert kind="error">
              {viewErrors.form.map((message) => (
                <div key={message}>{message}</div>
              ))}
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
