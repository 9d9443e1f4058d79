import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';
import { useLoginViewQuery } from './login.api';
import { returnUrlOf } from './return-url';
import { SignInForm } from './sign-in-form';

const NS = 'mfe-login';

/** The body of both sign-in routes once LoginView has answered. */
function SignInBody({ local }: { local: boolean }) {
  const { t } = useTranslation(NS);
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const { data: view, isLoading } = useLoginViewQuery({ returnUrl });

  if (isLoading) return <p aria-live="polite">{t('login.loading')}</p>;
  // Without LoginView the form still works: the server checks everything again on Login.
  const allowLocal = view?.allowLocal ?? true;
  const providers = view && !local && view.showLoginProviders ? view.providers : [];
  return (
    <Stack>
      {allowLocal ? (
        <SignInForm returnUrl={view?.returnUrl ?? returnUrl} rememberedUsername={view?.username} />
      ) : (
        <Alert kind="info">{t('errors:localLoginNotAllowed')}</Alert>
      )}
      {providers.length > 0 ? (
        <nav aria-label={t('login.providersHeading')}>
          <h2>{t('login.providersHeading')}</h2>
          <ul className="hr-stack">
            {providers.map((provider) => (
              <li key={provider.vendorId}>
                <Link
                  to={`/account/login/vendor?vendorId=${encodeURIComponent(provider.vendorId)}&returnUrl=${encodeURIComponent(returnUrl)}`}
                >
                  {provider.displayName}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </Stack>
  );
}

/** `/account/login`: the sign-in page (password form and, when the partner allows, external providers). */
export function LoginPage() {
  const { t } = useTranslation(NS);
  return (
    <Page title={t('routes.login')} pageId="login">
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
      <Card>
        <SignInBody local />
      </Card>
    </Page>
  );
}
