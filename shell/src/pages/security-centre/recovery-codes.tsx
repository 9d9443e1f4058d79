import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useRegenerateRecoveryCodesMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

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
