import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ASSET_VERSION, type RemotesManifest } from 'shared-contracts';
import { Card, Page } from 'shared-contracts/ui';
import { fetchManifest } from '../remotes/remote-loader';

/** `/devops`: the versions this browser runs (asset version and the remote versions the manifest gave it). */
export function DevopsPage() {
  const { t } = useTranslation('common');
  const [manifest, setManifest] = useState<RemotesManifest | undefined>();
  useEffect(() => {
    fetchManifest()
      .then(setManifest)
      .catch(() => setManifest({ remotes: {} }));
  }, []);
  return (
    <Page title={t('routes.devops')} pageId="devops">
      <Card>
        <dl>
          <dt>{t('devops.assetVersion')}</dt>
          <dd>{ASSET_VERSION}</dd>
          {Object.entries(manifest?.remotes ?? {}).map(([id, entry]) => (
            <div key={id}>
              <dt>{id}</dt>
              <dd>{entry?.version}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </Page>
  );
}
