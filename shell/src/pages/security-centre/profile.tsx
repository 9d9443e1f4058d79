import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { ResultStatus } from 'shared-contracts/account-ui';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useUpdateProfileMutation } from './security-centre.api';
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
