import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  credentialOptionsQuerySchema,
  DEVICE_NAME_MAX,
  returnUrlOf,
  toDeviceRegistrationPayload,
  withReturnUrl,
} from 'shared-contracts';
import { isRedirectFollowed, useUserQuery } from 'shared-contracts/api';
import {
  Alert,
  Button,
  Card,
  needsRecentSignIn,
  Page,
  requestToast,
  Stack,
  TextField,
} from 'shared-contracts/ui';
import {
  useCredentialOptionsMutation,
  useRegisterCredentialMutation,
  useSkipFidoMutation,
} from './register-device.api';
import { currentBrowser, describeBrowser } from './device-name';
import { DeviceList } from './device-list';
import { SignInAgainHere } from './sign-in-again-here';

/** The name the field starts with: "Chrome on Windows" in the visitor's language, or a plain "My device". */
function useSuggestedName(): string {
  const { t } = useTranslation('mfe-devices');
  const { browser, platform } = describeBrowser(currentBrowser());
  if (browser && platform) return t('register.suggestedName', { browser, platform });
  return browser ?? platform ?? t('register.fallbackName');
}

/**
 * `/account/registerdevice?returnUrl=…` (SPEC.md §2, §4 "Device registration"): the device offer of a sign-in, or a
 * signed-in user adding a device. Credential options by display name, the device creates the credential
 * (@simplewebauthn/browser), RegisterCredential stores it and answers 209 onwards. Any failure — the device refused,
 * the server refused — shows the device-registration error against the whole form; Skip (SkipFido) always works.
 */
export function RegisterDevicePage() {
  const { t } = useTranslation('mfe-devices');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const suggested = useSuggestedName();
  const [name, setName] = useState<string | undefined>(undefined);
  const displayName = name ?? suggested;
  const [nameErrors, setNameErrors] = useState<string[]>([]);
  const [failed, setFailed] = useState(false);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [credentialOptions] = useCredentialOptionsMutation();
  const [registerCredential] = useRegisterCredentialMutation();
  const [skipFido, skip] = useSkipFidoMutation();
  // A signed-in user (not a sign-in at its device offer) also sees and manages the devices already registered.
  const { data: user } = useUserQuery({ returnUrl });
  const signedIn = user?.isAuthenticated === true;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    setStale(false);
    setRegistered(false);
    const checked = credentialOptionsQuerySchema.safeParse({ displayName });
    if (!checked.success) {
      setNameErrors([
        t(`errors:${checked.error.issues[0]?.message === 'required' ? 'required' : 'invalidValue'}`),
      ]);
      event.currentTarget.querySelector<HTMLInputElement>('input[name="displayName"]')?.focus();
      return;
    }
    setNameErrors([]);
    setBusy(true);
    try {
      const optionsJSON = await credentialOptions({ displayName: checked.data.displayName }).unwrap();
      // Loaded with the page's own chunk, never on the sign-in page.
      const { startRegistration } = await import('@simplewebauthn/browser');
      const attestation = await startRegistration({ optionsJSON });
      const result = await registerCredential({
        payload: toDeviceRegistrationPayload(attestation),
        returnUrl,
      }).unwrap();
      // SPEC.md §8's "device registered", also after the offer of a sign-in: the 209 onwards has already moved an
      // in-app target on, where the shell's toast shows it; a full page load (back to an application) leaves this
      // page up until the next one draws, so the page says it too.
      setRegistered(true);
      requestToast({ kind: 'success', message: t('register.registered') });
      if (!isRedirectFollowed(result)) window.location.assign(withReturnUrl('/redirect', returnUrl));
    } catch (error) {
      // S21: a signed-in person whose sign-in is not recent is offered "Sign in again", which comes back here.
      if (needsRecentSignIn(error)) setStale(true);
      // SPEC.md §4: whatever else failed (device, browser, server), one error against the whole form.
      else setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const onSkip = async () => {
    const result = await skipFido({ returnUrl });
    if ('data' in result && !isRedirectFollowed(result.data))
      window.location.assign(withReturnUrl('/redirect', returnUrl));
  };

  return (
    <Page title={t('routes.registerDevice')} pageId="registerdevice">
      <Card>
        <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <p>{t('pages.registerDevice')}</p>
            {registered ? <Alert kind="success">{t('register.registered')}</Alert> : null}
            {failed ? <Alert kind="error">{t('errors:deviceRegistrationError')}</Alert> : null}
            {stale ? <SignInAgainHere /> : null}
            <TextField
              label={t('register.nameLabel')}
              name="displayName"
              autoComplete="off"
              maxLength={DEVICE_NAME_MAX}
              value={displayName}
              onChange={(event) => setName(event.target.value)}
              errors={nameErrors}
              hint={t('register.nameHint')}
              required
            />
            <Button type="submit" loading={busy}>
              {busy ? t('register.registering') : t('register.submit')}
            </Button>
            {signedIn ? (
              // From the security centre: no sign-in to skip or go back to, only back where the person came from.
              <Link className="hr-button hr-button--secondary" to={withReturnUrl('/redirect', returnUrl)}>
                {t('register.cancel')}
              </Link>
            ) : (
              <>
                <Button variant="secondary" loading={skip.isLoading} onClick={() => void onSkip()}>
                  {t('register.skip')}
                </Button>
                <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
              </>
            )}
          </Stack>
        </form>
      </Card>
      {signedIn ? <DeviceList /> : null}
    </Page>
  );
}
