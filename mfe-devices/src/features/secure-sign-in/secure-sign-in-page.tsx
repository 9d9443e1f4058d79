import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, toSecureSignInPayload, withReturnUrl } from 'shared-contracts';
import {
  isRedirectFollowed,
  useAssertionOptionsMutation,
  useSecureLoginMutation,
} from 'shared-contracts/api';
import { Alert, Button, Card, Page, Stack } from 'shared-contracts/ui';

type Attempt = 'asking' | 'failed';

/**
 * `/account/login/secure?returnUrl=…` (SPEC.md §4 "Secure sign-in"), also reached from the sign-in page's "Sign in
 * with a passkey": request assertion options, ask the device (@simplewebauthn/browser), post the result; the 209
 * goes on to the returnUrl. Any failure ends the attempt quietly: the §8 message with a retry and the way back to
 * the username and password form.
 */
export function SecureLoginPage() {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const [attempt, setAttempt] = useState<Attempt>('asking');
  const [assertionOptions] = useAssertionOptionsMutation();
  const [secureLogin] = useSecureLoginMutation();

  /** One attempt; false on any failure (SPEC.md §4). */
  const signIn = useCallback(async (): Promise<boolean> => {
    try {
      const options = await assertionOptions().unwrap();
      const { startAuthentication } = await import('@simplewebauthn/browser');
      // The same WebAuthn JSON; the DOM's typing says `type: string` where the library's says `'public-key'`.
      const optionsJSON = options as Parameters<typeof startAuthentication>[0]['optionsJSON'];
      const assertion = await startAuthentication({ optionsJSON });
      const result = await secureLogin({ payload: toSecureSignInPayload(assertion), returnUrl }).unwrap();
      if (!isRedirectFollowed(result)) window.location.assign(withReturnUrl('/redirect', returnUrl));
      return true;
    } catch {
      return false;
    }
  }, [assertionOptions, secureLogin, returnUrl]);

  const start = useCallback(() => {
    setAttempt('asking');
    void signIn().then((ok) => {
      if (!ok) setAttempt('failed');
    });
  }, [signIn]);

  // Ask once on arrival (the visitor chose a passkey to get here); a development double effect asks once too.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    start();
  }, [start]);

  return (
    <Page title={t('routes.loginSecure')} pageId="login-secure">
      <Card>
        <Stack>
          {attempt === 'failed' ? (
            <Alert kind="error">{t('errors:secureSignInFailed')}</Alert>
          ) : (
            <p role="status">{t('secure.asking')}</p>
          )}
          {attempt === 'failed' ? (
            <Button onClick={start} autoFocus>
              {t('secure.retry')}
            </Button>
          ) : null}
          <Link to={withReturnUrl('/account/login', returnUrl)}>{t('secure.useUsername')}</Link>
        </Stack>
      </Card>
    </Page>
  );
}
