import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { changeExpiredPasswordRequestSchema, withReturnUrl, type SecurityCentreView } from 'shared-contracts';
import {
  NewPasswordFields,
  PasswordField,
  ResultStatus,
  useLiveForm,
  type NewPasswordStrings,
} from 'shared-contracts/account-ui';
import { isApiError, translateErrorMessage, useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import {
  useChangePasswordMutation,
  useConfirmEmailChangeMutation,
  useRequestEmailChangeMutation,
  useUpdateProfileMutation,
} from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * Profile: the display name ("Employee has been updated." on save, SPEC.md §8, and "Saved" beside the button until
 * the name is edited again). The save invalidates `User`, so the signed-in card names the person anew at once.
 */
export function ProfileSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [displayName, setDisplayName] = useState(view.profile.displayName);
  const [saved, setSaved] = useState(false);
  const [update, updating] = useUpdateProfileMutation();
  const errors = useFormErrors(updating.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    // A failed call keeps what was typed (the field is only ever set by the person).
    const result = await update({ displayName });
    if ('error' in result) return void recent.check(result.error);
    setSaved(true);
    requestToast({ kind: 'success', message: t('profile.saved') });
  };
  return (
    <Card>
      <section aria-labelledby="profile-heading" data-testid="profile">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <h2 id="profile-heading">{t('profile.heading')}</h2>
            <p>{t('profile.userName', { userName: view.profile.userName })}</p>
            <FormErrors messages={errors.form} />
            <TextField
              label={t('profile.displayName')}
              value={displayName}
              autoComplete="name"
              maxLength={100}
              required
              errors={errors.field('displayName')}
              onChange={(event) => {
                setDisplayName(event.target.value);
                setSaved(false);
              }}
            />
            <div className="hr-result-row">
              <Button type="submit" loading={updating.isLoading}>
                {t('profile.save')}
              </Button>
              <ResultStatus message={saved ? t('profile.savedShort') : ''} testId="profile-result" />
            </div>
          </Stack>
        </form>
      </section>
    </Card>
  );
}

/**
 * E-mail change (issue 43, ADR 0036): the new address gets a link; the address changes only when it is opened
 * (see {@link ConfirmEmailChange}). Asking needs a recent sign-in.
 */
export function EmailSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [request, requesting] = useRequestEmailChangeMutation();
  const errors = useFormErrors(requesting.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSentTo('');
    const result = await request({ email });
    if ('error' in result) return void recent.check(result.error);
    setEmail('');
    setSentTo(email);
    requestToast({ kind: 'success', message: t('email.sent', { email }) });
  };
  return (
    <Card>
      <section aria-labelledby="email-heading" data-testid="email">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <h2 id="email-heading">{t('email.heading')}</h2>
            <p>{view.profile.email ? t('email.current', { email: view.profile.email }) : t('email.none')}</p>
            {view.profile.pendingEmail ? (
              <p data-testid="pending-email">{t('email.pending', { email: view.profile.pendingEmail })}</p>
            ) : null}
            <FormErrors messages={errors.form} />
            <TextField
              label={t('email.new')}
              type="email"
              autoComplete="email"
              value={email}
              maxLength={254}
              required
              hint={t('email.hint')}
              errors={errors.field('email')}
              onChange={(event) => setEmail(event.target.value)}
            />
            <div className="hr-result-row">
              <Button type="submit" loading={requesting.isLoading}>
                {t('email.send')}
              </Button>
              <ResultStatus
                message={sentTo ? t('email.sentShort', { email: sentTo }) : ''}
                testId="email-result"
              />
            </div>
          </Stack>
        </form>
      </section>
    </Card>
  );
}

/**
 * The mailed link (`/account/?confirmEmail=…`), opened while signed in as the account that asked: one button
 * confirms (a mail scanner that follows the link changes nothing), then the link leaves the address bar. The card
 * stays with the new address in it (and the focus on its heading, the button being gone), an error stays in it.
 */
export function ConfirmEmailChange() {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const [search, setSearch] = useSearchParams();
  const token = search.get('confirmEmail');
  const [confirmed, setConfirmed] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirm, confirming] = useConfirmEmailChangeMutation();
  const errors = useFormErrors(confirming.error);
  if (!token && !confirmed) return null;
  const go = async () => {
    if (!token) return;
    const result = await confirm({ token });
    if ('error' in result) return;
    setConfirmed(result.data.email);
    setSearch({}, { replace: true });
    heading.current?.focus();
    requestToast({ kind: 'success', message: t('email.changed', { email: result.data.email }) });
  };
  return (
    <Card>
      <section aria-labelledby="confirm-email-heading" data-testid="confirm-email">
        <Stack>
          <h2 id="confirm-email-heading" ref={heading} tabIndex={-1}>
            {t('email.confirmHeading')}
          </h2>
          {confirmed ? null : <p>{t('email.confirmText')}</p>}
          <ResultStatus
            message={confirmed ? t('email.confirmed', { email: confirmed }) : ''}
            testId="confirm-email-result"
          />
          {confirmed ? null : (
            <>
              <FormErrors messages={[...errors.form, ...errors.field('token'), ...errors.field('email')]} />
              <Button loading={confirming.isLoading} onClick={() => void go()}>
                {t('email.confirm')}
              </Button>
            </>
          )}
        </Stack>
      </section>
    </Card>
  );
}

/**
 * The customer chosen for this session, and the way to customer selection. Choosing one in mfe-tenant invalidates
 * the shared `Account` tag, so coming back shows the new customer without a reload.
 */
export function CustomerSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  if (!view.customer && !view.canSwitchCustomer) return null;
  return (
    <Card>
      <section aria-labelledby="customer-heading" data-testid="customer">
        <Stack>
          <h2 id="customer-heading">{t('customer.heading')}</h2>
          <p>{view.customer ? t('customer.current', { name: view.customer.name }) : t('customer.none')}</p>
          {view.canSwitchCustomer ? (
            <Link
              className="hr-button hr-button--secondary"
              to={withReturnUrl('/account/select', '/account/')}
            >
              {t('customer.switch')}
            </Link>
          ) : null}
        </Stack>
      </section>
    </Card>
  );
}

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
