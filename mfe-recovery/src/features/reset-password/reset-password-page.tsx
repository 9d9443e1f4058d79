import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  DEFAULT_PASSWORD_RULES,
  resetPasswordRequestSchema,
  returnUrlOf,
  withReturnUrl,
} from 'shared-contracts';
import { isApiError, isRedirectFollowed, useFormErrors } from 'shared-contracts/api';
import { NewPasswordFields, useLiveForm } from 'shared-contracts/account-ui';
import { Alert, Button, Card, Page, Stack } from 'shared-contracts/ui';
import { rulesOf, usePasswordRulesQuery } from '../shared/password-rules.api';
import { useNewPasswordStrings } from '../shared/use-new-password-strings';
import { useResetPasswordMutation } from './reset-password.api';

const FIELDS = ['newPassword', 'confirmPassword'] as const;

/**
 * `/account/reset-password?token=…` (SPEC.md §2): the mailed link. The token is read once, kept in the page's state
 * and taken out of the address bar (no history entry, no Referer keeps it). `PasswordRules` with the token gives the
 * account's rules, or sends a dead link to `/error/link-expired`; `ResetPassword` never signs in (S14), so the page
 * ends with a link to sign in.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('mfe-recovery');
  const passwordStrings = useNewPasswordStrings();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => search.get('token') ?? '');
  const returnUrl = returnUrlOf(search);

  useEffect(() => {
    if (!search.has('token')) return;
    const rest = new URLSearchParams(search);
    rest.delete('token');
    const query = rest.toString();
    // A replace (history.replaceState underneath): the address bar and the history entry lose the token.
    void navigate({ pathname: location.pathname, search: query ? `?${query}` : '' }, { replace: true });
  }, [search, location.pathname, navigate]);

  const { data } = usePasswordRulesQuery({ token }, { skip: token === '' });
  const rules = rulesOf(data) ?? DEFAULT_PASSWORD_RULES;
  const [resetPassword, { isLoading, error, data: done, reset }] = useResetPasswordMutation();
  const server = useFormErrors(error);
  const form = useLiveForm(
    FIELDS,
    (v) => resetPasswordRequestSchema(rules).safeParse({ ...v, token }),
    server,
    reset,
    { guided: ['newPassword'] },
  );
  const signIn = withReturnUrl('/account/login', returnUrl);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    if (!form.check(element)) return;
    const result = await resetPassword({ token, ...form.values });
    if ('error' in result && isApiError(result.error)) form.focusServerErrors(element, result.error.errors);
  };

  let body;
  if (token === '') {
    body = (
      <Stack>
        <Alert kind="error">{t('reset.missingToken')}</Alert>
        <Link to={withReturnUrl('/account/recover', returnUrl)}>{t('reset.newLink')}</Link>
      </Stack>
    );
  } else if (done && !isRedirectFollowed(done)) {
    body = (
      <Stack>
        <Alert kind="success">
          <strong>{t('reset.done')}</strong> {t('reset.signInWithNew')}
        </Alert>
        <Link to={signIn}>{t('reset.signIn')}</Link>
      </Stack>
    );
  } else {
    body = (
      <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack>
          <p>{t('pages.resetPassword')}</p>
          {server.form.length > 0 ? (
            <Alert kind="error">
              {server.form.map((message) => (
                <div key={message}>{message}</div>
              ))}
            </Alert>
          ) : null}
          <NewPasswordFields form={form} rules={rules} strings={passwordStrings} autoFocus />
          <Button type="submit" loading={isLoading}>
            {t('reset.submit')}
          </Button>
          <Link to={signIn}>{t('common.backToSignIn')}</Link>
        </Stack>
      </form>
    );
  }

  return (
    <Page title={t('routes.resetPassword')} pageId="reset-password">
      <Card>{body}</Card>
    </Page>
  );
}
