import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  changeExpiredPasswordRequestSchema,
  DEFAULT_PASSWORD_RULES,
  returnUrlOf,
  withReturnUrl,
} from 'shared-contracts';
import { isApiError, isRedirectFollowed, useFormErrors } from 'shared-contracts/api';
import { NewPasswordFields, PasswordField, useLiveForm } from 'shared-contracts/account-ui';
import { Alert, Button, Card, Page, Stack } from 'shared-contracts/ui';
import { rulesOf, usePasswordRulesQuery } from '../shared/password-rules.api';
import { useNewPasswordStrings } from '../shared/use-new-password-strings';
import { useChangeExpiredPasswordMutation } from './change-expired-password.api';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/**
 * `/account/change-expired-password?returnUrl=…` (SPEC.md §2): the expired-password step of a sign-in. The user
 * typed the password a moment ago and that sign-in verified it, so the page asks only for the new one (ADR 0039);
 * when the sign-in came another way (a one-time code) the server answers `currentPasswordRequired` and the page
 * then asks for the current password too. The rules are the pending user's (`PasswordRules` without a token);
 * `ChangeExpiredPassword` answers 209 to the sign-in's next step, which the base query follows.
 */
export function ChangeExpiredPasswordPage() {
  const { t } = useTranslation('mfe-recovery');
  const passwordStrings = useNewPasswordStrings();
  const [search] = useSearchParams();
  const returnUrl = returnUrlOf(search);
  const { data } = usePasswordRulesQuery({});
  const rules = rulesOf(data) ?? DEFAULT_PASSWORD_RULES;
  const [change, { isLoading, error, reset }] = useChangeExpiredPasswordMutation();
  const server = useFormErrors(error);
  // Sticky: once the server asked for the current password, the field stays until the step is done.
  const [askCurrent, setAskCurrent] = useState(false);
  const formElement = useRef<HTMLFormElement>(null);
  const form = useLiveForm(
    FIELDS,
    (v) =>
      changeExpiredPasswordRequestSchema(rules, {
        currentPassword: askCurrent ? 'required' : 'verified',
      }).safeParse({ ...v, returnUrl }),
    server,
    reset,
    { guided: ['newPassword'] },
  );

  useEffect(() => {
    if (askCurrent) formElement.current?.querySelector<HTMLInputElement>('[name="currentPassword"]')?.focus();
  }, [askCurrent]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    if (!form.check(element)) return;
    const { currentPassword, newPassword, confirmPassword } = form.values;
    const result = await change(
      askCurrent
        ? { currentPassword, newPassword, confirmPassword, returnUrl }
        : { newPassword, confirmPassword, returnUrl },
    );
    if ('error' in result && isApiError(result.error)) {
      if (!askCurrent && (result.error.errors.currentPassword ?? []).length > 0) setAskCurrent(true);
      else form.focusServerErrors(element, result.error.errors);
    }
    // A 200 without a step change should not happen; go on to the returnUrl through the safe redirect page.
    else if ('data' in result && !isRedirectFollowed(result.data))
      window.location.assign(withReturnUrl('/redirect', returnUrl));
  };

  return (
    <Page title={t('routes.changeExpiredPassword')} pageId="change-expired-password">
      <Card>
        <form ref={formElement} method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            <Alert kind="warning">{t('pages.changeExpiredPassword')}</Alert>
            {server.form.length > 0 ? (
              <Alert kind="error">
                {server.form.map((message) => (
                  <div key={message}>{message}</div>
                ))}
              </Alert>
            ) : null}
            {askCurrent ? (
              <PasswordField
                strings={passwordStrings}
                label={t('password.currentLabel')}
                name="currentPassword"
                autoComplete="current-password"
                value={form.values.currentPassword}
                onChange={form.onChange('currentPassword')}
                errors={form.errorsOf('currentPassword')}
                required
              />
            ) : null}
            <NewPasswordFields form={form} rules={rules} strings={passwordStrings} autoFocus />
            <Button type="submit" loading={isLoading}>
              {t('change.submit')}
            </Button>
            <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
