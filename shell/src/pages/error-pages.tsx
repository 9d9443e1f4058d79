import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  ERROR_ID_PATTERN,
  LOGIN_PATH,
  providerIdSchema,
  safeReturnUrl,
  withReturnUrl,
} from 'shared-contracts';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';
import { useErrorRecordQuery } from '../platform/platform.api';

/**
 * What a server-side error record says (`errorId` in the address, resolved by the `Error` call): the message in
 * the visitor's language, the reference to quote, the time, and the way back — to the application when the record
 * knows it, else to the sign-in page. An unknown, expired or malformed reference shows nothing (no hint).
 */
export function ErrorReference({ offerSignIn = true }: { offerSignIn?: boolean }) {
  const { t, i18n } = useTranslation('common');
  const [search] = useSearchParams();
  const errorId = search.get('errorId') ?? '';
  const valid = ERROR_ID_PATTERN.test(errorId);
  const { data: record } = useErrorRecordQuery(errorId, { skip: !valid });
  if (!valid || !record || record.errorId !== errorId) return null;
  const time = new Date(record.occurredAt);
  return (
    <div className="hr-error-reference" data-testid="error-reference">
      <p data-testid="error-message">
        {t(`errorPages.messages.${record.messageKey}`, { clientName: record.clientName ?? '' })}
      </p>
      <p>
        {t('errorPages.errorId', { errorId: '' })}
        <strong data-testid="error-reference-id">{record.errorId}</strong>
      </p>
      <p>
        {t('errorPages.occurredAt', {
          time: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
            time,
          ),
        })}
      </p>
      <p>{t('errorPages.quoteReference')}</p>
      {record.returnUrl ? (
        <a href={record.returnUrl} data-testid="error-way-back">
          {record.clientName
            ? t('errorPages.backToApplication', { clientName: record.clientName })
            : t('errorPages.backToApplicationUnnamed')}
        </a>
      ) : offerSignIn ? (
        <Link to={LOGIN_PATH} data-testid="error-way-back">
          {t('errorPages.signIn')}
        </Link>
      ) : null}
    </div>
  );
}

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
          {/* Pages with a sign-in link of their own do not get a second one. */}
          <ErrorReference offerSignIn={pageKey !== 'signInError' && pageKey !== 'accessDenied'} />
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
      <Link to={withReturnUrl(LOGIN_PATH, returnUrl)} data-testid="access-denied-sign-in">
        {t('errorPages.signIn')}
      </Link>
    </ErrorPage>
  );
}

/** `/error`: the error index; `errorId` names the server-side error when there is one. */
export function ErrorIndexPage() {
  return <ErrorPage pageKey="error" pageId="error" />;
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
  const recover = given ? withReturnUrl('/account/recover', safeReturnUrl(given)) : '/account/recover';
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

/**
 * `/error/signin`; after an upstream provider refused (`?provider=<id>&returnUrl=`, issue 53) the record says
 * "Signing in with <provider> failed", and the page offers to try that provider again or sign in another way.
 */
export function SignInErrorPage() {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const provider = providerIdSchema.safeParse(search.get('provider'));
  const given = search.get('returnUrl');
  const back = (path: string) => (given ? withReturnUrl(path, safeReturnUrl(given)) : path);
  return (
    <ErrorPage pageKey="signInError" pageId="signin-error">
      {provider.success ? (
        <Link
          to={back(`/account/login/vendor?vendorId=${encodeURIComponent(provider.data)}`)}
          data-testid="upstream-try-again"
        >
          {t('errorPages.tryAgain')}
        </Link>
      ) : null}
      <Link to={back(LOGIN_PATH)}>
        {t(provider.success ? 'errorPages.signInAnotherWay' : 'errorPages.signIn')}
      </Link>
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
