import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { navigateFull } from 'shared-contracts/api';
import { SignInAgain } from 'shared-contracts/ui';
import { useDevicesSignInAgainMutation } from './register-device.api';

/**
 * "Sign in again" on the passkey page (S21, ADR 0036): ends this session and comes back here, with the same
 * returnUrl, after a new full sign-in.
 */
export function SignInAgainHere({ urgent = true }: { urgent?: boolean }) {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const here = withReturnUrl('/account/registerdevice', returnUrlOf(search));
  const [signInAgain, signingIn] = useDevicesSignInAgainMutation();
  const go = async () => {
    const result = await signInAgain({ returnUrl: here });
    if ('data' in result && result.data) navigateFull(result.data.redirect);
  };
  return (
    <SignInAgain
      message={t('register.recentSignIn')}
      label={t('register.signInAgain')}
      loading={signingIn.isLoading}
      urgent={urgent}
      onSignInAgain={() => void go()}
    />
  );
}
