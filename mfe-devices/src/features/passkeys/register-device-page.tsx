import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  credentialOptionsQuerySchema,
  DEVICE_NAME_MAX,
  returnUrlOf,
  toDeviceRegistrationPayload,
  withReturnUrl,
  type ApiError,
} from 'shared-contracts';
import {
  ConfirmItsYouHere,
  confirmItsYouCancelled,
  isRecentSignInRefusal,
  requestConfirmItsYou,
} from 'shared-contracts/account-ui';
import { isRedirectFollowed, useFormErrors, useUserQuery } from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, requestToast, Stack, TextField } from 'shared-contracts/ui';
import {
  useCredentialOptionsMutation,
  useRegisterCredentialMutation,
  useSkipFidoMutation,
} from './passkeys.api';
import { currentBrowser, describeBrowser } from './passkey-name';
import { PasskeyList } from './passkey-list';

/** Whether a failed registration is a change the person chose not to confirm ("Confirm it's you" cancelled). */
function wasNotConfirmed(error: unknown): boolean {
  const errors = (error as { errors?: Record<string, unknown> } | undefined)?.errors;
  const form = errors?.[''];
  return Array.isArray(form) && form.includes('confirmItsYouCancelled');
}

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
  const [notConfirmed, setNotConfirmed] = useState<ApiError | undefined>(undefined);
  const notConfirmedErrors = useFormErrors(notConfirmed);
  const [busy, setBusy] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [credentialOptions] = useCredentialOptionsMutation();
  const [registerCredential] = useRegisterCredentialMutation();
  const [skipFido, skip] = useSkipFidoMutation();
  // A signed-in user (not a sign-in at its device offer) also sees and manages the devices already registered.
  const { data: user } = useUserQuery({ returnUrl });
  const signedIn = user?.isAuthenticated === true;

  /** Options (confirmed first when the sign-in is not recent), the device's credential, then RegisterCredential. */
  const ceremony = async (passkeyName: string) => {
    const optionsJSON = await credentialOptions({ displayName: passkeyName }).unwrap();
    // Loaded with the page's own chunk, never on the sign-in page.
    const { startRegistration } = await import('@simplewebauthn/browser');
    const attestation = await startRegistration({ optionsJSON });
    return registerCredential({ payload: toDeviceRegistrationPayload(attestation), returnUrl }).unwrap();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    setNotConfirmed(undefined);
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
      let result;
      try {
        result = await ceremony(checked.data.displayName);
      } catch (error) {
        // The window lapsed during the device's ceremony (S21): its challenge is bound to the session id that a
        // confirmation renews, so once confirmed the ceremony starts again, with the same name.
        if (!isRecentSignInRefusal(error)) throw error;
        if (!(await requestConfirmItsYou()))
          return setNotConfirmed(confirmItsYouCancelled(error as ApiError));
        result = await ceremony(checked.data.displayName);
      }
      // SPEC.md §8's "device registered", also after the offer of a sign-in: the 209 onwards has already moved an
      // in-app target on, where the shell's toast shows it; a full page load (back to an application) leaves this
      // page up until the next one draws, so the page says it too.
      setRegistered(true);
      requestToast({ kind: 'success', message: t('register.registered') });
      if (!isRedirectFollowed(result)) window.location.assign(withReturnUrl('/redirect', returnUrl));
    } catch (error) {
      // S21: a signed-in person who closed "Confirm it's you" is told the passkey was not added, in words.
      if (wasNotConfirmed(error)) setNotConfirmed(error as ApiError);
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
            <FormErrors messages={notConfirmedErrors.form} />
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
      {signedIn ? (
        <>
          <PasskeyList />
          {/* A signed-in person's changes need a recent sign-in (S21): asked here, in place (ADR 0045). */}
          <ConfirmItsYouHere
            namespace="mfe-devices"
            returnUrl={withReturnUrl('/account/registerdevice', returnUrl)}
          />
        </>
      ) : null}
    </Page>
  );
}
