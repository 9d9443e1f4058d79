import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { withReturnUrl, type SecurityCentreView } from 'shared-contracts';
import { requestToast } from '../../events';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { useRecentSignIn } from './recent-sign-in';
import {
  useChangePasswordMutation,
  useConfirmEmailChangeMutation,
  useRequestEmailChangeMutation,
  useUpdateProfileMutation,
} from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** Profile: the display name ("Employee has been updated." on save, SPEC.md §8). */
export function ProfileSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [displayName, setDisplayName] = useState(view.profile.displayName);
  const [update, updating] = useUpdateProfileMutation();
  const errors = useFormErrors(updating.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await update({ displayName });
    if ('error' in result) return void recent.check(result.error);
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
              onChange={(event) => setDisplayName(event.target.value)}
            />
            <Button type="submit" loading={updating.isLoading}>
              {t('profile.save')}
            </Button>
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
  const [request, requesting] = useRequestEmailChangeMutation();
  const errors = useFormErrors(requesting.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await request({ email });
    if ('error' in result) return void recent.check(result.error);
    setEmail('');
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
            <Button type="submit" loading={requesting.isLoading}>
              {t('email.send')}
            </Button>
          </Stack>
        </form>
      </section>
    </Card>
  );
}

/**
 * The mailed link (`/account/?confirmEmail=…`), opened while signed in as the account that asked: one button
 * confirms (a mail scanner that follows the link changes nothing), then the link leaves the address bar.
 */
export function ConfirmEmailChange() {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const [search, setSearch] = useSearchParams();
  const token = search.get('confirmEmail');
  const [confirm, confirming] = useConfirmEmailChangeMutation();
  const errors = useFormErrors(confirming.error);
  if (!token) return null;
  const go = async () => {
    const result = await confirm({ token });
    if ('error' in result) return;
    setSearch({}, { replace: true });
    requestToast({ kind: 'success', message: t('email.changed', { email: result.data.email }) });
  };
  return (
    <Card>
      <section aria-labelledby="confirm-email-heading" data-testid="confirm-email">
        <Stack>
          <h2 id="confirm-email-heading">{t('email.confirmHeading')}</h2>
          <p>{t('email.confirmText')}</p>
          <FormErrors messages={[...errors.form, ...errors.field('token'), ...errors.field('email')]} />
          <Button loading={confirming.isLoading} onClick={() => void go()}>
            {t('email.confirm')}
          </Button>
        </Stack>
      </section>
    </Card>
  );
}

/** The customer chosen for this session, and the way to customer selection. */
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

/** Password change: the partner's rules shown before typing, the current password required. */
export function PasswordSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [change, changing] = useChangePasswordMutation();
  const errors = useFormErrors(changing.error);
  const rules = view.passwordRules;
  const ruleTexts = [
    t('errors:passwordTooShort', { n: rules.minLength }),
    t('errors:passwordTooLong', { n: rules.maxLength }),
    ...(rules.requireCharacterClasses ? [t('errors:passwordCharacterClasses')] : []),
    ...(rules.maxConsecutive > 0 ? [t('errors:passwordConsecutive', { n: rules.maxConsecutive })] : []),
    ...(rules.invalidCharacters ? [t('errors:passwordInvalidCharacters')] : []),
  ];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await change({ currentPassword, newPassword, confirmPassword });
    if ('error' in result) return void recent.check(result.error);
    setCurrent('');
    setNew('');
    setConfirm('');
    requestToast({ kind: 'success', message: `${t('password.updated')}. ${t('password.othersSignedOut')}` });
  };
  return (
    <Card>
      <section aria-labelledby="password-heading" data-testid="password">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <h2 id="password-heading">{t('password.heading')}</h2>
            <FormErrors messages={errors.form} />
            <TextField
              label={t('password.current')}
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              errors={errors.field('currentPassword')}
              onChange={(event) => setCurrent(event.target.value)}
            />
            <div id="password-rules">
              <p>{t('password.rules')}</p>
              <ul>
                {ruleTexts.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </div>
            <TextField
              label={t('password.new')}
              type="password"
              autoComplete="new-password"
              aria-describedby="password-rules"
              value={newPassword}
              errors={errors.field('newPassword')}
              onChange={(event) => setNew(event.target.value)}
            />
            <TextField
              label={t('password.confirm')}
              type="password"
              autoComplete="new-password"
              value={confirmPassword}
              errors={errors.field('confirmPassword')}
              onChange={(event) => setConfirm(event.target.value)}
            />
            <Button type="submit" loading={changing.isLoading}>
              {t('password.save')}
            </Button>
          </Stack>
        </form>
      </section>
    </Card>
  );
}
