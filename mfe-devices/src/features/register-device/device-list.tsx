import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEVICE_NAME_MAX, type RegisteredDevice } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, needsRecentSignIn, Stack, TextField } from 'shared-contracts/ui';
import { useDevicesQuery, useRemoveDeviceMutation, useRenameDeviceMutation } from './register-device.api';
import { SignInAgainHere } from './sign-in-again-here';

/**
 * Manage devices (issue 14): the signed-in account's passkeys and security keys with their name, when each was added
 * and last used; rename or remove one. The server asks for a recent full sign-in first (S21) and says so.
 */
export function DeviceList() {
  const { t, i18n } = useTranslation('mfe-devices');
  const { data } = useDevicesQuery();
  const [changed, setChanged] = useState<RegisteredDevice[] | undefined>(undefined);
  const [rename, renaming] = useRenameDeviceMutation();
  const [remove, removing] = useRemoveDeviceMutation();
  const errors = useFormErrors(renaming.error ?? removing.error);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [name, setName] = useState('');
  const devices = changed ?? data?.devices;
  const date = (at: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(at);

  const onRename = async (event: FormEvent<HTMLFormElement>, id: string) => {
    event.preventDefault();
    const result = await rename({ id, name });
    if ('data' in result && result.data) {
      setChanged(result.data.devices);
      setEditing(undefined);
    }
  };

  const onRemove = async (id: string) => {
    const result = await remove({ id });
    if ('data' in result && result.data) setChanged(result.data.devices);
  };

  return (
    <Card>
      <Stack>
        <h2>{t('devices.heading')}</h2>
        {needsRecentSignIn(renaming.error ?? removing.error) ? (
          <SignInAgainHere />
        ) : (
          <FormErrors messages={errors.form} />
        )}
        {devices && devices.length === 0 ? <p>{t('devices.none')}</p> : null}
        <ul className="hr-device-list" aria-label={t('devices.heading')}>
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
                <Button
                  variant="secondary"
                  aria-label={t('devices.removeNamed', { name: device.name })}
                  loading={removing.isLoading && removing.originalArgs?.id === device.id}
                  onClick={() => void onRemove(device.id)}
                >
                  {t('devices.remove')}
                </Button>
              </Stack>
            </li>
          ))}
        </ul>
      </Stack>
    </Card>
  );
}
