import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import type { RemoteId } from 'shared-contracts';
import { Alert, Button, Page, Stack } from 'shared-contracts/ui';
import { retryRemote } from '../remotes/remote-loader';

/** Shown in place of a remote's page when the remote failed to load; Retry tries again. */
export function RemoteUnavailablePage({ remoteId }: { remoteId: RemoteId }) {
  const { t } = useTranslation('common');
  const revalidator = useRevalidator();
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    await retryRemote(remoteId);
    await revalidator.revalidate();
    setRetrying(false);
  };
  return (
    <Page title={t('remoteUnavailable.title')} pageId="remote-unavailable">
      <Stack>
        <Alert kind="warning">{t('remoteUnavailable.body')}</Alert>
        <Button onClick={() => void retry()} loading={retrying || revalidator.state === 'loading'}>
          {t('remoteUnavailable.retry')}
        </Button>
      </Stack>
    </Page>
  );
}
