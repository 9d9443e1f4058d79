import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isSafeLocalPath, returnUrlOf, type TwoFactorMethod, withReturnUrl } from 'shared-contracts';
import { navigateFull, navigateInApp, useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, needsRecentSignIn, Page, SignInAgain, Stack } from 'shared-contracts/ui';
import { AuthenticatorSetup } from './authenticator-setup-step';
import { addableMethods, ChooseMethod } from './choose-method-step';
import { CodesStep } from './codes-step';
import { DoneStep } from './done-step';
import { PinSetup } from './pin-setup-step';
import { useSetup2faViewQuery, useSetupSignInAgainMutation } from './setup-two-factor.api';
import { SmsSetup } from './sms-setup-step';

/**
 * The wizard's steps, in order (ADR 0008): choose, set up and confirm, recovery codes, done. The codes step belongs
 * to the first method only: a method added beside others keeps the account's codes (ADR 0050).
 */
const FIRST_METHOD_STEPS = ['choose', 'setup', 'codes', 'done'] as const;
type WizardStep = (typeof FIRST_METHOD_STEPS)[number];
const ADDED_METHOD_STEPS: readonly WizardStep[] = ['choose', 'setup', 'done'];

/**
 * `/account/setup-twofactor`: the set-up wizard, as a sign-in step when 2FA is required and from a signed-in
 * account (S21: a recent full sign-in). From the account it adds a method beside the ones set up (none of those is
 * preselected; the authenticator app is replaced only through its own confirmed action) and has Cancel, which goes
 * back to the returnUrl with nothing changed: nothing is stored before a method's code is confirmed. Each step's
 * heading takes the focus, so keyboard and screen-reader users start at the new content.
 */
export function SetupTwoFactorPage() {
  const { t } = useTranslation('mfe-mfa');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const view = useSetup2faViewQuery();
  const [step, setStep] = useState<WizardStep>('choose');
  const [chosen, setMethod] = useState<TwoFactorMethod | undefined>(undefined);
  // The first method not set up yet is the suggestion; one the account has is never preselected.
  const method = chosen ?? (view.data ? addableMethods(view.data)[0] : undefined);
  const [replace, setReplace] = useState(false);
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
  const adding = (view.data?.configured.length ?? 0) > 0;
  const steps = adding ? ADDED_METHOD_STEPS : FIRST_METHOD_STEPS;
  const confirmed = (id: string | null) => {
    setRecoveryCodesId(id ?? undefined);
    setStep(id === null ? 'done' : 'codes');
  };
  const back = () => {
    setReplace(false);
    setStep('choose');
  };
  const index = steps.indexOf(step);
  // From the account only: a sign-in's required set-up has nowhere to go back to but the sign-in itself.
  const cancel =
    view.data && !view.data.duringSignIn ? (
      <Button
        variant="secondary"
        onClick={() => void navigateInApp(isSafeLocalPath(returnUrl) ? returnUrl : '/account/')}
      >
        {t('setup.cancel')}
      </Button>
    ) : null;

  return (
    <Page title={t('routes.setupTwoFactor')} pageId="setup-twofactor">
      <Card>
        <Stack>
          <p className="hr-fine-print" aria-live="polite">
            {t('setup.stepOf', { n: index + 1, total: steps.length })}
          </p>
          <h2 ref={heading} tabIndex={-1} style={{ margin: 0, fontSize: '1.25rem' }}>
            {step === 'setup' && method ? t(`setup.${method}.title`) : t(`setup.${step}.title`)}
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
              onReplaceAuthenticator={() => {
                setMethod('authenticator');
                setReplace(true);
                setStep('setup');
              }}
              actions={cancel}
            />
          ) : null}
          {view.data && step === 'setup' && method === 'authenticator' ? (
            <AuthenticatorSetup
              view={view.data}
              replace={replace}
              onBack={back}
              onConfirmed={confirmed}
              actions={cancel}
            />
          ) : null}
          {view.data && step === 'setup' && method === 'sms' ? (
            <SmsSetup onBack={back} onConfirmed={confirmed} actions={cancel} />
          ) : null}
          {view.data && step === 'setup' && method === 'pin' ? (
            <PinSetup view={view.data} onBack={back} onConfirmed={confirmed} actions={cancel} />
          ) : null}
          {step === 'codes' ? (
            <CodesStep
              id={recoveryCodesId}
              accountName={view.data?.authenticator.accountName}
              onNext={() => setStep('done')}
            />
          ) : null}
          {step === 'done' && method ? (
            <DoneStep
              returnUrl={returnUrl}
              method={method}
              outcome={replace ? 'replaced' : adding ? 'added' : 'first'}
            />
          ) : null}
        </Stack>
      </Card>
    </Page>
  );
}
