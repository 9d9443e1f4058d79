import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withReturnUrl, type SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import { useDeletePasskeyMutation, useRenamePasskeyMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** One passkey: its name, when it was added and last used; rename in place, delete. */
function PasskeyItem({ passkey }: { passkey: SecurityCentreView['passkeys'][number] }) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [rename, renaming] = useRenamePasskeyMutation();
  const [remove, removing] = useDeletePasskeyMutation();
  const errors = useFormErrors(renaming.error ?? removing.error);
  const save = async () => {
    const result = await rename({ id: passkey.id, name });
    if ('error' in result) return void recent.check(result.error);
    setEditing(false);
    requestToast({ kind: 'success', message: t('passkeys.updated') });
  };
  const del = async () => {
    const result = await remove({ id: passkey.id });
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('passkeys.deleted') });
  };
  return (
    <li className="security-centre__item" data-testid="passkey">
      <span className="security-centre__item-text">
        <strong>{passkey.name}</strong>
        <br />
        {t('passkeys.created', { date: formatWhen(passkey.createdAt, i18n.language) })}
        {' · '}
        {passkey.lastUsedAt === null
          ? t('passkeys.neverUsed')
          : t('passkeys.lastUsed', { date: formatWhen(passkey.lastUsedAt, i18n.language) })}
      </span>
      <FormErrors messages={errors.form} />
      {editing ? (
        <form
          className="security-centre__inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <TextField
            label={t('passkeys.newName', { name: passkey.name })}
            value={name}
            maxLength={64}
            required
            errors={errors.field('name')}
            onChange={(event) => setName(event.target.value)}
          />
          <span className="security-centre__actions">
            <Button type="submit" loading={renaming.isLoading}>
              {t('passkeys.save')}
            </Button>
            <Button variant="secondary" type="button" onClick={() => setEditing(false)}>
              {t('passkeys.cancel')}
            </Button>
          </span>
        </form>
      ) : (
        <span className="security-centre__actions">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('passkeys.rename', { name: passkey.name })}
          </Button>
          <Button variant="secondary" loading={removing.isLoading} onClick={() => void del()}>
            {t('passkeys.delete', { name: passkey.name })}
          </Button>
        </span>
      )}
    </li>
  );
}

/** Passkeys: the list with last use, rename, delete, and the way to the device registration page. */
export function PasskeysSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  return (
    <Card>
      <section aria-labelledby="passkeys-heading" data-testid="passkeys">
        <Stack>
          <h2 id="passkeys-heading">{t('passkeys.heading')}</h2>
          <p>{t('passkeys.intro')}</p>
          {view.passkeys.length === 0 ? <p>{t('passkeys.none')}</p> : null}
          <ul className="hr-stack hr-list-plain">
            {view.passkeys.map((passkey) => (
              <PasskeyItem key={`${passkey.id}:${passkey.name}`} passkey={passkey} />
            ))}
          </ul>
          <Link
            className="hr-button hr-button--secondary"
            to={withReturnUrl('/account/registerdevice', '/account/')}
          >
            {t('passkeys.add')}
          </Link>
        </Stack>
      </section>
    </Card>
  );
}
