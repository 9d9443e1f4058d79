import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeExpiredPasswordRequestSchema, type SecurityCentreView } from 'shared-contracts';
import {
  NewPasswordFields,
  PasswordField,
  ResultStatus,
  useLiveForm,
  type NewPasswordStrings,
} from 'shared-contracts/account-ui';
import { isApiError, translateErrorMessage, useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useChangePasswordMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** The words of the shared password fields, from the centre's namespace (loaded with the page). */
function usePasswordStrings(): NewPasswordStrings {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  return {
    newLabel: t('password.new'),
    confirmLabel: t('password.confirm'),
    show: t('password.show'),
    hide: t('password.hide'),
    showLabel: t('password.showLabel'),
    hideLabel: t('password.hideLabel'),
    rulesHeading: t('password.rules'),
    met: t('password.met'),
    notMet: t('password.notMet'),
    allMet: t('password.allMet'),
    someMet: (met, total) => t('password.someMet', { met, total }),
    rule: (message) => translateErrorMessage(t, message),
    strength: (score) => t('password.strength', { level: t(`password.strengthLevels.${score}`) }),
  };
}

/**
 * Password change with the same fields as the expired-password page (issue 49): the partner's rules listed before
 * typing and marked as one types, the strength meter, Show on the current and the new password. Checked live with the
 * schema the server uses; the server's errors land under their fields, the form's in the card. A failed call keeps
 * what was typed; a done one empties the fields and says so in the card.
 */
export function PasswordSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const strings = usePasswordStrings();
  const recent = useRecentSignIn();
  const [changed, setChanged] = useState(false);
  const [change, changing] = useChangePasswordMutation();
  const errors = useFormErrors(changing.error);
  const rules = view.passwordRules;
  const form = useLiveForm(
    PASSWORD_FIELDS,
    (values) => changeExpiredPasswordRequestSchema(rules, { currentPassword: 'required' }).safeParse(values),
    errors,
    changing.reset,
    { guided: ['newPassword'] },
  );
  const known = [view.profile.userName, view.profile.displayName, view.profile.email ?? ''].filter(Boolean);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    setChanged(false);
    if (!form.check(element)) return;
    const result = await change(form.values);
    if ('error' in result) {
      if (!recent.check(result.error) && isApiError(result.error))
        form.focusServerErrors(element, result.error.errors);
      return;
    }
    form.clear();
    setChanged(true);
    requestToast({ kind: 'success', message: `${t('password.updated')}. ${t('password.othersSignedOut')}` });
  };
  const edit = (name: (typeof PASSWORD_FIELDS)[number]) => {
    const onChange = form.onChange(name);
    return (event: ChangeEvent<HTMLInputElement>) => {
      setChanged(false);
      onChange(event);
    };
  };
  return (
    <Card>
      <section aria-labelledby="password-heading" data-testid="password">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <h2 id="password-heading">{t('password.heading')}</h2>
            <FormErrors messages={errors.form} />
            <PasswordField
              strings={strings}
              label={t('password.current')}
              name="currentPassword"
              autoComplete="current-password"
              value={form.values.currentPassword}
              errors={form.errorsOf('currentPassword')}
              onChange={edit('currentPassword')}
              required
            />
            <NewPasswordFields
              form={{ values: form.values, errorsOf: form.errorsOf, onChange: edit }}
              rules={rules}
              strings={strings}
              userInputs={known}
            />
            <div className="hr-result-row">
              <Button type="submit" loading={changing.isLoading}>
                {t('password.save')}
              </Button>
              <ResultStatus message={changed ? t('password.changed') : ''} testId="password-result" />
            </div>
          </Stack>
        </form>
      </section>
    </Card>
  );
}
