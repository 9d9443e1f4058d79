import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withReturnUrl, type SecurityCentreView, type TwoFactorMethod } from 'shared-contracts';
import { requestToast } from '../../events';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import {
  useDeletePasskeyMutation,
  useRegenerateRecoveryCodesMutation,
  useRemoveTwoStepMethodMutation,
  useRenamePasskeyMutation,
  useSetDefaultTwoStepMethodMutation,
} from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** Two-step verification: the methods, the default, remove, and the way to the set-up page to add one. */
export function TwoStepSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [remove, removing] = useRemoveTwoStepMethodMutation();
  const [setDefault, settingDefault] = useSetDefaultTwoStepMethodMutation();
  const errors = useFormErrors(removing.error ?? settingDefault.error);
  const { methods, required } = view.twoStep;
  const name = (method: TwoFactorMethod) => t(`twoStep.methods.${method}`);
  const act = async (kind: 'remove' | 'default', method: TwoFactorMethod) => {
    const result = kind === 'remove' ? await remove({ method }) : await setDefault({ method });
    if ('error' in result) return void recent.check(result.error);
    requestToast({
      kind: 'success',
      message: t(kind === 'remove' ? 'twoStep.removed' : 'twoStep.defaultChanged'),
    });
  };
  return (
    <Card>
      <section aria-labelledby="two-step-heading" data-testid="two-step">
        <Stack>
          <h2 id="two-step-heading">{t('twoStep.heading')}</h2>
          <p>{t('twoStep.intro')}</p>
          {required ? <p>{t('twoStep.required')}</p> : null}
          <FormErrors messages={errors.form} />
          {methods.length === 0 ? <p>{t('twoStep.none')}</p> : null}
          <ul className="hr-stack hr-list-plain">
            {methods.map((m) => (
              <li key={m.method} className="security-centre__item">
                <span className="security-centre__item-text">
                  <strong>{name(m.method)}</strong>
                  {m.detail ? <span dir="ltr"> {m.detail}</span> : null}
                  {m.isDefault ? (
                    <span className="security-centre__badge"> {t('twoStep.default')}</span>
                  ) : null}
                </span>
                <span className="security-centre__actions">
                  {!m.isDefault ? (
                    <Button
                      variant="secondary"
                      loading={settingDefault.isLoading && settingDefault.originalArgs?.method === m.method}
                      onClick={() => void act('default', m.method)}
                    >
                      {t('twoStep.makeDefault', { method: name(m.method) })}
                    </Button>
                  ) : null}
                  <Button
                    variant="secondary"
                    loading={removing.isLoading && removing.originalArgs?.method === m.method}
                    onClick={() => void act('remove', m.method)}
                  >
                    {t('twoStep.remove', { method: name(m.method) })}
                  </Button>
                </span>
              </li>
            ))}
          </ul>
          <Link
            className="hr-button hr-button--secondary"
            to={withReturnUrl('/account/setup-twofactor', '/account/')}
          >
            {t('twoStep.add')}
          </Link>
        </Stack>
      </section>
    </Card>
  );
}

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

/** Recovery codes: how many are left, and a new set shown once. */
export function RecoveryCodesSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [codes, setCodes] = useState<string[] | undefined>(undefined);
  const errors = useFormErrors(regenerating.error);
  const hasTwoStep = view.twoStep.methods.length > 0;
  const run = async () => {
    const result = await regenerate();
    if ('error' in result) return void recent.check(result.error);
    setCodes(result.data.codes);
    requestToast({ kind: 'success', message: t('recoveryCodes.created') });
  };
  return (
    <Card>
      <section aria-labelledby="recovery-codes-heading" data-testid="recovery-codes">
        <Stack>
          <h2 id="recovery-codes-heading">{t('recoveryCodes.heading')}</h2>
          {hasTwoStep ? (
            <p>{t('recoveryCodes.remaining', { count: view.recoveryCodes.remaining })}</p>
          ) : (
            <p>{t('recoveryCodes.unavailable')}</p>
          )}
          <FormErrors messages={errors.form} />
          {codes ? (
            <div aria-labelledby="new-codes-heading" role="region">
              <h3 id="new-codes-heading">{t('recoveryCodes.newCodes')}</h3>
              <p>{t('recoveryCodes.note')}</p>
              <ul className="security-centre__codes" dir="ltr" data-testid="new-recovery-codes">
                {codes.map((code) => (
                  <li key={code}>
                    <code>{code}</code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {hasTwoStep ? (
            <Button variant="secondary" loading={regenerating.isLoading} onClick={() => void run()}>
              {t('recoveryCodes.regenerate')}
            </Button>
          ) : null}
        </Stack>
      </section>
    </Card>
  );
}
