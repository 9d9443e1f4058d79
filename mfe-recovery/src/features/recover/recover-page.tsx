import { startTransition, useActionState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { recoverRequestSchema, returnUrlOf, withReturnUrl } from 'shared-contracts';
import { useDispatch } from 'react-redux';
import { isApiError, isCaptchaRequired, requestCaptcha, useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, Page, Stack, TextField } from 'shared-contracts/ui';
// The hook alone, bundled with this page (not a shared module): the recover page is one in-app step from the sign-in
// page, and the signed-in kit (shared-contracts/account-ui, dialogs and the password meter) is none of its business.
import { useLiveForm } from 'shared-contracts/account-ui/use-live-form';
import { useRecoverMutation } from './recover.api';

const FIELDS = ['username'] as const;

/**
 * `/account/recover` (SPEC.md §2): the username or email of the account; `Recover` answers the same for every
 * login (S10), so the page always says the same neutral notice. A throttle comes back as a form error.
 */
export function RecoverPage() {
  const { t } = useTranslation('mfe-recovery');
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const [recover, { isLoading, error, isSuccess, reset }] = useRecoverMutation();
  const server = useFormErrors(error);
  const form = useLiveForm(FIELDS, (v) => recoverRequestSchema.safeParse(v), server, reset);
  const signIn = withReturnUrl('/account/login', returnUrl);
  const dispatch = useDispatch();

  // The request is a React action (useActionState): `sending` stays true from the submit until the answer (or the
  // captcha) is handled, so the button cannot send twice.
  const [, sendRecover, sending] = useActionState(async (_previous: null, element: HTMLFormElement) => {
    const send = async (): Promise<void> => {
      const result = await recover({ username: form.values.username, returnUrl });
      // After a few requests from one source the server wants a solved challenge (SPEC.md §4 "Captcha"): the
      // shell shows it and, once solved, Recover is sent again.
      if ('error' in result && isCaptchaRequired(result.error))
        return requestCaptcha(dispatch, { action: 'recover', onSolved: () => void send() });
      if ('error' in result && isApiError(result.error)) form.focusServerErrors(element, result.error.errors);
    };
    await send();
    return null;
  }, null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    if (!form.check(element)) return;
    startTransition(() => sendRecover(element));
  };

  return (
    <Page title={t('routes.recover')} pageId="recover">
      <Card>
        {isSuccess ? (
          <Stack>
            <Alert kind="success">{t('recover.notice')}</Alert>
            <Link to={signIn}>{t('common.backToSignIn')}</Link>
          </Stack>
        ) : (
          <form method="post" onSubmit={onSubmit} noValidate>
            <Stack>
              <p>{t('pages.recover')}</p>
              {server.form.length > 0 ? (
                <Alert kind="error">
                  {server.form.map((message) => (
                    <div key={message}>{message}</div>
                  ))}
                </Alert>
              ) : null}
              <TextField
                label={t('recover.usernameLabel')}
                name="username"
                autoComplete="username"
                value={form.values.username}
                onChange={form.onChange('username')}
                errors={form.errorsOf('username')}
                required
                autoFocus
              />
              <Button type="submit" loading={sending || isLoading}>
                {sending || isLoading ? t('recover.sending') : t('recover.submit')}
              </Button>
              <Link to={signIn}>{t('common.backToSignIn')}</Link>
            </Stack>
          </form>
        )}
      </Card>
    </Page>
  );
}
