import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, withReturnUrl } from 'shared-contracts';
import { isCaptchaRequired, requestCaptcha, useFormErrors } from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, Stack, TextField } from 'shared-contracts/ui';
import { useExternalUserQuery, useLinkMutation, useNextMutation } from './external.api';
import { useFocusOnFailure } from '../shared/use-focus-on-failure';

const NS = 'mfe-login';

/**
 * `/account/link`: an upstream identity linked to no account yet. Shows who the upstream said it is (ExternalUser)
 * and asks for the local username and password (Link: throttled and captcha-guarded like Login); "Go back"
 * (Next with `back`) forgets it. After linking, that upstream signs this account in without the password.
 */
export function LinkPage() {
  const { t } = useTranslation(NS);
  const dispatch = useDispatch();
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const { data: who, isLoading, isError } = useExternalUserQuery();
  const [link, { isLoading: linking, error }] = useLinkMutation();
  const [next, { isLoading: leaving }] = useNextMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errors = useFormErrors(error);
  const formRef = useFocusOnFailure<HTMLFormElement>(error);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The captcha is asked for when Link answers captchaRequired (the base query cancels Link while it shows).
    const send = async () => {
      const result = await link({ username, password });
      if ('error' in result && isCaptchaRequired(result.error))
        requestCaptcha(dispatch, { action: 'link', onSolved: () => void send() });
    };
    await send();
  };

  return (
    <Page title={t('routes.link')} pageId="link">
      <Card>
        <Stack>
          {isLoading ? <p aria-live="polite">{t('login.loading')}</p> : null}
          {isError ? (
            <>
              <Alert kind="warning">{t('link.nothingToLink')}</Alert>
              <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
            </>
          ) : null}
          {who ? (
            <>
              <p data-testid="external-user">
                {who.name || who.email
                  ? t('link.signedInAs', {
                      provider: who.provider,
                      name: [who.name, who.email ? `(${who.email})` : ''].filter(Boolean).join(' '),
                    })
                  : t('link.signedInWith', { provider: who.provider })}
              </p>
              <p>{t('link.explain', { provider: who.provider })}</p>
              <form ref={formRef} method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
                <Stack>
                  <FormErrors messages={errors.form} />
                  <TextField
                    label={t('login.usernameLabel')}
                    name="username"
                    autoComplete="username"
                    autoCapitalize="none"
                    spellCheck={false}
                    value={username}
                    onChange={(event) => setUsername(event.target.value)}
                    errors={errors.field('username')}
                    required
                    autoFocus
                  />
                  <TextField
                    label={t('login.passwordLabel')}
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                    errors={errors.field('password')}
                    required
                  />
                  <Button type="submit" loading={linking}>
                    {t('link.submit')}
                  </Button>
                  <Button variant="secondary" loading={leaving} onClick={() => void next({ button: 'back' })}>
                    {t('link.back')}
                  </Button>
                </Stack>
              </form>
            </>
          ) : null}
        </Stack>
      </Card>
    </Page>
  );
}
