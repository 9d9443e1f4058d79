import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { ConfirmDialog, RecoveryCodeList, ResultStatus } from 'shared-contracts/account-ui';
import { Alert, Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useRecentSignIn } from './recent-sign-in';
import { useRegenerateRecoveryCodesMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** At or below this many codes left the card warns and asks for new ones (issue 49: "few or none left"). */
export const FEW_RECOVERY_CODES = 2;

/**
 * Recovery codes: how many are left (a warning when few or none are), and a new set shown once with Copy, Download
 * and Print, as the set-up wizard shows them. A new set kills the old one at once, so it is confirmed first while any
 * code is left.
 */
export function RecoveryCodesSection({ view }: { view: SecurityCentreView }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [codes, setCodes] = useState<string[] | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const errors = useFormErrors(regenerating.error);
  const hasTwoStep = view.twoStep.methods.length > 0;
  const { remaining } = view.recoveryCodes;
  const account = view.profile.email ?? view.profile.userName;
  const run = async () => {
    const result = await regenerate();
    setConfirming(false);
    if ('error' in result) return void recent.check(result.error);
    setCodes(result.data.codes);
    setStatus(t('recoveryCodes.createdStatus'));
    requestToast({ kind: 'success', message: t('recoveryCodes.created') });
  };
  // The codes just shown are the set the count describes: no warning about them.
  const few = hasTwoStep && !codes && remaining <= FEW_RECOVERY_CODES;
  return (
    <Card>
      <section aria-labelledby="recovery-codes-heading" data-testid="recovery-codes">
        <Stack>
          <h2 id="recovery-codes-heading">{t('recoveryCodes.heading')}</h2>
          {!hasTwoStep ? (
            <p>{t('recoveryCodes.unavailable')}</p>
          ) : few ? (
            <div data-testid="recovery-codes-few">
              <Alert kind="warning">
                {remaining === 0
                  ? t('recoveryCodes.noneLeft')
                  : t('recoveryCodes.fewLeft', { count: remaining })}
              </Alert>
            </div>
          ) : (
            <p>{t('recoveryCodes.remaining', { count: remaining })}</p>
          )}
          <FormErrors messages={errors.form} />
          <ResultStatus message={status} testId="recovery-codes-status" />
          {codes ? (
            <div aria-labelledby="new-codes-heading" role="region" data-testid="new-recovery-codes">
              <h3 id="new-codes-heading">{t('recoveryCodes.newCodes')}</h3>
              <RecoveryCodeList
                codes={codes}
                strings={{
                  note: t('recoveryCodes.note'),
                  listLabel: t('recoveryCodes.newCodes'),
                  copy: t('recoveryCodes.copy'),
                  copied: t('recoveryCodes.copied'),
                  download: t('recoveryCodes.download'),
                  print: t('recoveryCodes.print'),
                  fileTitle: t('recoveryCodes.fileTitle', { account }),
                }}
              />
            </div>
          ) : null}
          {hasTwoStep ? (
            <Button
              variant={few ? 'primary' : 'secondary'}
              loading={regenerating.isLoading}
              // Nothing dies when no code is left: no question then.
              onClick={() => (remaining > 0 ? setConfirming(true) : void run())}
            >
              {t('recoveryCodes.regenerate')}
            </Button>
          ) : null}
          <ConfirmDialog
            open={confirming}
            danger
            title={t('recoveryCodes.confirmTitle')}
            message={t('recoveryCodes.confirmMessage', { count: remaining })}
            confirmLabel={t('recoveryCodes.confirm')}
            cancelLabel={t('recoveryCodes.cancel')}
            onConfirm={run}
            onCancel={() => setConfirming(false)}
          />
        </Stack>
      </section>
    </Card>
  );
}
