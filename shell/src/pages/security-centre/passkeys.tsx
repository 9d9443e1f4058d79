import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withReturnUrl, type SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { ConfirmDialog, ResultStatus, useFocusAfterRemoval } from 'shared-contracts/account-ui';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import { useDeletePasskeyMutation, useRenamePasskeyMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

type Passkey = SecurityCentreView['passkeys'][number];

/**
 * One passkey: its name, when it was added and last used; rename in place, delete after a confirmation naming it.
 * `onDone` tells the section what happened, which it shows in the card (the item itself is gone after a delete).
 */
function PasskeyItem({
  passkey,
  onDone,
  onRemoved,
}: {
  passkey: Passkey;
  onDone: (message: string) => void;
  onRemoved: (id: string) => void;
}) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [rename, renaming] = useRenamePasskeyMutation();
  const [remove, removing] = useDeletePasskeyMutation();
  const errors = useFormErrors(renaming.error ?? removing.error);
  const save = async () => {
    const result = await rename({ id: passkey.id, name });
    if ('error' in result) return void recent.check(result.error);
    setEditing(false);
    onDone(t('passkeys.renamedStatus', { name: name.trim() }));
    requestToast({ kind: 'success', message: t('passkeys.updated') });
  };
  const del = async () => {
    const result = await remove({ id: passkey.id });
    setConfirming(false);
    if ('error' in result) return void recent.check(result.error);
    onRemoved(passkey.id);
    onDone(t('passkeys.deletedStatus', { name: passkey.name }));
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
          {/* Destructive: outlined in the error colour, unlike Rename beside it, and confirmed first. */}
          <Button
            variant="secondary"
            className="hr-button--danger-outline"
            loading={removing.isLoading}
            onClick={() => setConfirming(true)}
          >
            {t('passkeys.delete', { name: passkey.name })}
          </Button>
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        danger
        title={t('passkeys.deleteConfirmTitle', { name: passkey.name })}
        message={t('passkeys.deleteConfirmMessage')}
        confirmLabel={t('passkeys.deleteConfirm')}
        cancelLabel={t('passkeys.cancel')}
        onConfirm={del}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}

/**
 * Passkeys: the list with last use, rename, delete, and the way to the passkey registration page
 * (`/account/registerdevice`, its SPEC.md route).
 */
export function PasskeysSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [heading, removed] = useFocusAfterRemoval<HTMLHeadingElement>(view.passkeys.map((p) => p.id));
  return (
    <Card>
      <section aria-labelledby="passkeys-heading" data-testid="passkeys">
        <Stack>
          <h2 id="passkeys-heading" ref={heading} tabIndex={-1}>
            {t('passkeys.heading')}
          </h2>
          <p>{t('passkeys.intro')}</p>
          {view.passkeys.length === 0 ? <p>{t('passkeys.none')}</p> : null}
          <ul className="hr-stack hr-list-plain">
            {view.passkeys.map((passkey) => (
              <PasskeyItem
                key={`${passkey.id}:${passkey.name}`}
                passkey={passkey}
                onDone={setStatus}
                onRemoved={removed}
              />
            ))}
          </ul>
          <ResultStatus message={status} testId="passkeys-status" />
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
