import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LOGIN_PATH, safeReturnUrl } from 'shared-contracts';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';

function ErrorPage({
  pageKey,
  pageId,
  children,
}: {
  pageKey: string;
  pageId: string;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Page title={t(`routes.${pageKey}`)} pageId={pageId}>
      <Card>
        <Stack>
          <p>{t(`errorPages.${pageKey}`)}</p>
          {children}
          <Link to="/">{t('errorPages.home')}</Link>
        </Stack>
      </Card>
    </Page>
  );
}

/** `/error/access-denied?returnUrl=`: a sign-in link that brings the visitor back to where they were going. */
export function AccessDeniedPage() {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const returnUrl = safeReturnUrl(search.get('returnUrl') ?? search.get('ReturnUrl'));
  return (
    <ErrorPage pageKey="accessDenied" pageId="access-denied">
      <Link
        to={`${LOGIN_PATH}?returnUrl=${encodeURIComponent(returnUrl)}`}
        data-testid="access-denied-sign-in"
      >
        {t('errorPages.signIn')}
      </Link>
    </ErrorPage>
  );
}

/** `/error`: the error index; `errorId` names the server-side error when there is one. */
export function ErrorIndexPage() {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const errorId = search.get('errorId');
  return (
    <ErrorPage pageKey="error" pageId="error">
      {errorId ? <p>{t('errorPages.errorId', { errorId })}</p> : null}
    </ErrorPage>
  );
}

/** `/error/expired`. */
export function ExpiredPage() {
  return <ErrorPage pageKey="expired" pageId="expired" />;
}

/** `/error/link-expired`: a dead reset link; the way to ask for a new one keeps the returnUrl when there is one. */
export function LinkExpiredPage() {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const given = search.get('returnUrl') ?? search.get('ReturnUrl');
  const recover = given
    ? `/account/recover?returnUrl=${encodeURIComponent(safeReturnUrl(given))}`
    : '/account/recover';
  return (
    <ErrorPage pageKey="linkExpired" pageId="link-expired">
      <Link to={recover}>{t('errorPages.newLink')}</Link>
    </ErrorPage>
  );
}

/** `/error/notfound`. */
export function ErrorNotFoundPage() {
  return <ErrorPage pageKey="errorNotFound" pageId="error-notfound" />;
}

/** `/error/signin`. */
export function SignInErrorPage() {
  const { t } = useTranslation('common');
  return (
    <ErrorPage pageKey="signInError" pageId="signin-error">
      <Link to={LOGIN_PATH}>{t('errorPages.signIn')}</Link>
    </ErrorPage>
  );
}

/** Any unknown path (the gateway answers it with HTTP 404). */
export function NotFoundPage() {
  return <ErrorPage pageKey="notFound" pageId="not-found" />;
}

/** What a page that crashed shows; the error is reported by the boundary. */
export function UnexpectedErrorPage() {
  const { t } = useTranslation('common');
  return (
    <Page title={t('errorPages.unexpectedTitle')} pageId="unexpected-error">
      <Alert kind="error">{t('errorPages.unexpected')}</Alert>
    </Page>
  );
}
