import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEVICE_NAME_MAX, type RegisteredDevice } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { ConfirmDialog, ResultStatus, useFocusAfterRemoval } from 'shared-contracts/account-ui';
import 'shared-contracts/account-ui/account-ui.css';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { useDevicesQuery, useRemoveDeviceMutation, useRenameDeviceMutation } from './passkeys.api';

/**
 * Manage passkeys (issue 14): the signed-in account's passkeys and security keys with their name, when each was
 * added and last used; rename or remove one. Without a recent full sign-in (S21) the call itself asks "Confirm it's
 * you" (account-ui's `ConfirmItsYouHere`, mounted by the page) and is sent again once confirmed; a cancelled confirmation is said in
 * this card, in words.
 */
export function PasskeyList() {
  const { t, i18n } = useTranslation('mfe-devices');
  const { data } = useDevicesQuery();
  const [changed, setChanged] = useState<RegisteredDevice[] | undefined>(undefined);
  const [rename, renaming] = useRenameDeviceMutation();
  const [remove, removing] = useRemoveDeviceMutation();
  const errors = useFormErrors(renaming.error ?? removing.error);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<RegisteredDevice | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const devices = changed ?? data?.devices;
  const [heading, removed] = useFocusAfterRemoval<HTMLHeadingElement>(devices?.map((d) => d.id) ?? []);
  const date = (at: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(at);

  const onRename = async (event: FormEvent<HTMLFormElement>, id: string) => {
    event.preventDefault();
    const result = await rename({ id, name });
    if ('data' in result && result.data) {
      setChanged(result.data.devices);
      setEditing(undefined);
      setStatus(t('devices.renamedStatus', { name: name.trim() }));
    }
  };

  const onRemove = async (device: RegisteredDevice) => {
    const result = await remove({ id: device.id });
    setConfirming(undefined);
    if ('data' in result && result.data) {
      setChanged(result.data.devices);
      removed(device.id);
      setStatus(t('devices.removedStatus', { name: device.name }));
    }
  };

  return (
    <Card>
      <Stack>
        <h2 ref={heading} tabIndex={-1}>
          {t('devices.heading')}
        </h2>
        <FormErrors messages={errors.form} />
        {devices && devices.length === 0 ? <p>{t('devices.none')}</p> : null}
        <ul className="hr-passkey-list" aria-label={t('devices.heading')}>
          {devices?.map((device) => (
            <li key={device.id}>
              <Stack>
                <strong>{device.name}</strong>
                <span>
                  {t('devices.added', { date: date(device.createdAt) })}
                  {' · '}
                  {device.lastUsedAt === null
                    ? t('devices.neverUsed')
                    : t('devices.lastUsed', { date: date(device.lastUsedAt) })}
                </span>
                {editing === device.id ? (
                  <form onSubmit={(event) => void onRename(event, device.id)} noValidate>
                    <Stack>
                      <TextField
                        label={t('devices.newName', { name: device.name })}
                        name="name"
                        autoComplete="off"
                        maxLength={DEVICE_NAME_MAX}
                        value={name}
                        onChange={(event) => setName(event.target.value)}
                        errors={errors.field('name')}
                        required
                        autoFocus
                      />
                      <Button type="submit" loading={renaming.isLoading}>
                        {t('devices.save')}
                      </Button>
                      <Button variant="secondary" onClick={() => setEditing(undefined)}>
                        {t('devices.cancel')}
                      </Button>
                    </Stack>
                  </form>
                ) : (
                  <Button
                    variant="secondary"
                    aria-label={t('devices.renameNamed', { name: device.name })}
                    onClick={() => {
                      setEditing(device.id);
                      setName(device.name);
                    }}
                  >
                    {t('devices.rename')}
                  </Button>
                )}
                {/* Destructive: outlined in the error colour, unlike Rename, and confirmed first. */}
                <Button
                  variant="secondary"
                  className="hr-button--danger-outline"
                  aria-label={t('devices.removeNamed', { name: device.name })}
                  loading={removing.isLoading && removing.originalArgs?.id === device.id}
                  onClick={() => setConfirming(device)}
                >
                  {t('devices.remove')}
                </Button>
              </Stack>
            </li>
          ))}
        </ul>
        <ResultStatus message={status} testId="devices-status" />
        <ConfirmDialog
          open={confirming !== undefined}
          danger
          title={t('devices.removeConfirmTitle', { name: confirming?.name ?? '' })}
          message={t('devices.removeConfirmMessage')}
          confirmLabel={t('devices.removeConfirm')}
          cancelLabel={t('devices.cancel')}
          onConfirm={() => (confirming ? onRemove(confirming) : undefined)}
          onCancel={() => setConfirming(undefined)}
        />
      </Stack>
    </Card>
  );
}
