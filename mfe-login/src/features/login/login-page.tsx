import { createContext, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { useFormErrors, usePartnerMetadataQuery, useUserQuery } from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, Stack } from 'shared-contracts/ui';
import { useVendorLoginMutation } from '../shared/vendor-login.api';
import { useLoginViewQuery, useSilentLoginMutation } from './login.api';

import { SignInForm } from './sign-in-form';

const NS = 'mfe-login';

/**
 * A login provider's button: one press starts its sign-in (VendorLogin answers 209 to the upstream's authorization
 * endpoint), with no stop at the vendor page in between. A provider that cannot be reached says so under it.
 */
function ProviderButton({
  vendorId,
  label,
  returnUrl,
}: {
  vendorId: string;
  label: string;
  returnUrl: string;
}) {
  const [vendorLogin, { isLoading, error }] = useVendorLoginMutation();
  // SPEC.md §7: vendor and one-time-token login ignore empty failures (no raw "Internal Server Error").
  const errors = useFormErrors(error, { ignoreEmpty: true });
  return (
    <li>
      <Stack>
        <Button
          variant="secondary"
          loading={isLoading}
          onClick={() => void vendorLogin({ vendorId, returnUrl })}
        >
          {label}
        </Button>
        <FormErrors messages={errors.form} />
      </Stack>
    </li>
  );
}

/**
 * A person already signed in who reaches the sign-in page (an application asked again, or Back): a real way on to
 * where the sign-in was going, and the way to sign in as someone else.
 */
function SignedInChoice({
  name,
  returnUrl,
  onDifferentUser,
}: {
  name: string;
  returnUrl: string;
  onDifferentUser: () => void;
}) {
  const { t } = useTranslation(NS);
  return (
    <Stack>
      <p>{t('login.signedInAs', { name })}</p>
      <Link className="hr-button hr-button--primary" to={withReturnUrl('/redirect', returnUrl)}>
        {t('login.continueSignedIn', { name })}
      </Link>
      <Button variant="secondary" onClick={onDifferentUser}>
        {t('login.differentUser')}
      </Button>
    </Stack>
  );
}

/** An application's sign-in: the OIDC interaction the sign-in resumes (what SilentLogin serves, ADR 0020). */
const APPLICATION_SIGN_IN = /^\/interaction\/[A-Za-z0-9_-]+$/;

/** The sign-in page's own path: where SilentLogin sends a remembered sign-in that needs the password first. */
const SIGN_IN_PAGE = '/account/login';

/**
 * SilentLogin (ADR 0020): a signed-in visitor who reaches the sign-in page for an application asks the server once
 * whether the sign-in goes on without typing (a remembered sign-in). Answers true while that question is open or
 * its redirect to another page is being followed; false when it does not apply, or when the server sent the browser
 * back here for the password (ADR 0005: then the page shows as always, its form once User says signed out).
 * The answer is kept under one cache key per application sign-in, so a page mounted again by the 209 to this very page sees it instead of
 * asking a second time.
 */
function useSilentLogin(returnUrl: string, signedIn: boolean | undefined, differentUser: boolean): boolean {
  const [silentLogin, { data, isError, isUninitialized }] = useSilentLoginMutation({
    fixedCacheKey: `silent-login ${returnUrl}`,
  });
  const asked = !isUninitialized;
  // Only a visitor who arrived signed in: a sign-in made on this page (Login's 209 is being followed, and the
  // refetched User says signed in) must not ask a second time.
  const [arrivedSignedIn, setArrivedSignedIn] = useState<boolean | undefined>(undefined);
  if (arrivedSignedIn === undefined && signedIn !== undefined) setArrivedSignedIn(signedIn);
  const applies =
    arrivedSignedIn === true && signedIn === true && !differentUser && APPLICATION_SIGN_IN.test(returnUrl);
  useEffect(() => {
    if (applies && !asked) void silentLogin({ returnUrl });
  }, [applies, asked, returnUrl, silentLogin]);
  if (!applies || (asked && isError)) return false;
  if (!asked || data === undefined) return true;
  const backHere = typeof data === 'object' && data !== null && data.redirect.split('?')[0] === SIGN_IN_PAGE;
  return data !== false && !backHere;
}

/** The body of both sign-in routes once LoginView has answered. */
function SignInBody({ local }: { local: boolean }) {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const { data: view } = useLoginViewQuery({ returnUrl });
  const { data: user } = useUserQuery({ returnUrl });
  const [differentUser, setDifferentUser] = useState(false);
  // The shell's start-up already holds the partner (one shared cache entry): no second call.
  const { data: partner } = usePartnerMetadataQuery();

  // The form shows at once, also while LoginView is in flight: it is what the first HTML already showed, and
  // without LoginView the form still works (the server checks everything again on Login).
  const allowLocal = view?.allowLocal ?? true;
  // External providers show only when the partner allows them (SPEC.md §3 showLoginProviders) and LoginView
  // lists some; the local-only route never shows them.
  const showProviders = !local && partner?.showLoginProviders === true && view?.showLoginProviders !== false;
  const providers = showProviders ? (view?.providers ?? []) : [];
  const silent = useSilentLogin(returnUrl, user?.isAuthenticated, differentUser);
  if (silent)
    return (
      <p role="status" aria-live="polite">
        {t('login.signingIn')}
      </p>
    );
  if (user?.isAuthenticated && !differentUser)
    return (
      <SignedInChoice
        name={user.displayName ?? user.userName ?? ''}
        returnUrl={view?.returnUrl ?? returnUrl}
        onDifferentUser={() => setDifferentUser(true)}
      />
    );
  return (
    <Stack>
      {allowLocal ? (
        <SignInForm
          returnUrl={view?.returnUrl ?? returnUrl}
          rememberedUsername={view?.username}
          captcha={view?.captcha}
          captchaRequired={view?.captchaRequired}
          forgetUsername={differentUser}
          viewLoaded={view !== undefined}
        />
      ) : (
        <Alert kind="info">{t('errors:localLoginNotAllowed')}</Alert>
      )}
      {providers.length > 0 ? (
        <nav aria-label={t('login.providersHeading')} data-testid="login-providers">
          <h2>{t('login.providersHeading')}</h2>
          <ul className="hr-stack hr-list-plain">
            {providers.map((provider) => (
              <ProviderButton
                key={provider.vendorId}
                vendorId={provider.vendorId}
                label={provider.buttonLabel ?? t('login.signInWith', { name: provider.displayName })}
                returnUrl={view?.returnUrl ?? returnUrl}
              />
            ))}
          </ul>
        </nav>
      ) : null}
    </Stack>
  );
}

/**
 * The application's name in a page drawn ahead: the build-time render (first-paint/render.tsx) gives the gateway's
 * placeholder, which the gateway fills with the name LoginView would give (issue 49: the line is there before any
 * script, so it does not push the form down when LoginView answers).
 */
export const FirstPaintApplication = createContext<string | undefined>(undefined);

/**
 * The line the gateway drew, read once when the app first renders: the takeover renders beside the drawn page
 * (shell/src/platform/first-paint.ts), so it is still in the document. It stands until LoginView answers.
 */
function drawnApplicationLine(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('[data-first-paint] [data-testid="login-client"]')?.textContent ?? undefined;
}

/**
 * Under the heading, the application this sign-in goes on to ("to continue to Payroll portal", as Google and Auth0
 * say), when LoginView names one: a sign-in to this site itself names nothing. Plain text (React escapes it); the
 * gateway sends only the registered name, cut to the schema's length.
 */
function ApplicationName() {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const drawnName = useContext(FirstPaintApplication);
  const [drawnLine] = useState(drawnApplicationLine);
  const { data: view } = useLoginViewQuery({ returnUrl: returnUrlOf(search) });
  const name = view?.clientName ?? drawnName;
  if (name) return <p data-testid="login-client">{t('login.continueTo', { client: name })}</p>;
  return !view && drawnLine ? <p data-testid="login-client">{drawnLine}</p> : null;
}

/** `/account/login`: the sign-in page (password form and, when the partner allows, external providers). */
export function LoginPage() {
  const { t } = useTranslation(NS);
  return (
    <Page title={t('routes.login')} pageId="login">
      <ApplicationName />
      <Card>
        <SignInBody local={false} />
      </Card>
    </Page>
  );
}

/** `/account/login/local`: password sign-in only. */
export function LocalLoginPage() {
  const { t } = useTranslation(NS);
  return (
    <Page title={t('routes.loginLocal')} pageId="login-local">
      <ApplicationName />
      <Card>
        <SignInBody local />
      </Card>
    </Page>
  );
}
