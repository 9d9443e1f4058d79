import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Checkbox, FormErrors, Stack } from 'shared-contracts/ui';
import { RecoveryCodeList } from '../shared/recovery-code-list';
import { useRecoveryCodeSet } from '../shared/use-recovery-code-set';

/** Step 3: the new recovery codes, shown once; going on needs the "stored" box ticked. */
export function CodesStep({
  id,
  accountName,
  onNext,
}: {
  id: string | undefined;
  accountName: string | undefined;
  onNext: () => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  const { data, error, isLoading } = useRecoveryCodeSet(id);
  const errors = useFormErrors(error);
  const [stored, setStored] = useState(false);
  return (
    <Stack>
      {isLoading ? <p role="status">{t('common.loading')}</p> : null}
      <FormErrors messages={errors.form} />
      {data ? <RecoveryCodeList codes={data.codes} accountName={accountName} /> : null}
      <Checkbox
        label={t('codes.stored')}
        name="stored"
        checked={stored}
        onChange={(event) => setStored(event.target.checked)}
      />
      <Button onClick={onNext} disabled={!stored && data !== undefined}>
        {t('common.continue')}
      </Button>
    </Stack>
  );
}
