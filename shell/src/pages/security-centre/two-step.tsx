import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withReturnUrl, type SecurityCentreView, type TwoFactorMethod } from 'shared-contracts';
import { ConfirmDialog } from 'shared-contracts/account-ui';
import 'shared-contracts/account-ui/account-ui.css';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useRemoveTwoStepMethodMutation, useSetDefaultTwoStepMethodMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * Two-step verification: the methods, the default (chosen here only: the sign-in opens on it, and adding a method
 * never changes it, ADR 0050), remove (confirmed first, naming the method), and the way to the set-up page to add
 * one beside the others.
 */
export function TwoStepSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [remove, removing] = useRemoveTwoStepMethodMutation();
  const [setDefault, settingDefault] = useSetDefaultTwoStepMethodMutation();
  const errors = useFormErrors(removing.error ?? settingDefault.error);
  const { methods, required } = view.twoStep;
  const name = (method: TwoFactorMethod) => t(`twoStep.methods.${method}`);
  const lastRequired = required && methods.length === 1;
  // The method whose removal waits for the person's confirmation.
  const [pendingRemoval, setRemoving] = useState<TwoFactorMethod | undefined>(undefined);
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
          {/* The gateway refuses to remove the last required method (lastTwoStepMethodRequired): no button for it. */}
          {lastRequired ? <p>{t('twoStep.requiredLast')}</p> : null}
          {methods.length > 1 ? <p>{t('twoStep.defaultMeaning')}</p> : null}
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
                  {!lastRequired ? (
                    <Button
                      variant="secondary"
                      className="hr-button--danger-outline"
                      loading={removing.isLoading && removing.originalArgs?.method === m.method}
                      onClick={() => setRemoving(m.method)}
                    >
                      {t('twoStep.remove', { method: name(m.method) })}
                    </Button>
                  ) : null}
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
          <ConfirmDialog
            open={pendingRemoval !== undefined}
            title={pendingRemoval ? t('twoStep.confirmRemove.title', { method: name(pendingRemoval) }) : ''}
            message={
              <p style={{ margin: 0 }}>
                {methods.length === 1
                  ? t('twoStep.confirmRemove.messageLast')
                  : t('twoStep.confirmRemove.message')}
              </p>
            }
            confirmLabel={pendingRemoval ? t('twoStep.remove', { method: name(pendingRemoval) }) : ''}
            cancelLabel={t('twoStep.cancel')}
            danger
            onConfirm={async () => {
              if (pendingRemoval) await act('remove', pendingRemoval);
              setRemoving(undefined);
            }}
            onCancel={() => setRemoving(undefined)}
            testId="remove-two-step-dialog"
          />
        </Stack>
      </section>
    </Card>
  );
}
