import { useTranslation } from 'react-i18next';
import { Alert, Button, Stack } from 'shared-contracts/ui';
import type { FailedPart } from './on-demand.js';

/**
 * A part of the page whose code did not arrive (`onDemand`): the words of a remote that is unavailable
 * (`remoteUnavailable`, in every locale), with Try again in place of the part. In the first load, since it shows exactly when a chunk could
 * not be fetched.
 */
export const PartUnavailable: FailedPart = ({ retry }) => {
  const { t } = useTranslation('common');
  return (
    <Stack>
      <Alert kind="warning">{t('remoteUnavailable.body')}</Alert>
      <Button onClick={retry}>{t('remoteUnavailable.retry')}</Button>
    </Stack>
  );
};
