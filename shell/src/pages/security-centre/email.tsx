import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { ResultStatus } from 'shared-contracts/account-ui';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useRequestEmailChangeMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * E-mail change (issue 43, ADR 0036): the new address gets a link; the address changes only when it is opened
 * (see `ConfirmEmailChange` in `confirm-email-change.tsx`). Asking needs a recent sign-in.
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
