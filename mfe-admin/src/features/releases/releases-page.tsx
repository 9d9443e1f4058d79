import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_RELEASES_PATH } from 'shared-contracts';
import { useConsoleAccessQuery } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { HEALTH_WINDOWS, type HealthWindow } from 'shared-contracts/console';
import { FormErrors, ProgressBar } from 'shared-contracts/ui';
import { ConsoleLayout } from '../shared/console-layout';
import { ReleaseCard } from './release-card';
import { ReleaseHistory } from './release-history';
import { useReleasesQuery } from './releases.api';

/** The health window as a group of radio buttons (arrow keys move between them, as a segmented control). */
function WindowChoice({
  value,
  onChange,
}: {
  value: HealthWindow;
  onChange: (window: HealthWindow) => void;
}) {
  const { t } = useTranslation('mfe-admin');
  return (
    <fieldset className="admin-segmented">
      <legend>{t('health.window')}</legend>
      {HEALTH_WINDOWS.map((window) => (
        <label key={window}>
          <input
            type="radio"
            name="health-window"
            value={window}
            checked={value === window}
            onChange={() => onChange(window)}
          />
          <span>{t(`health.windows.${window}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function Releases() {
  const { t } = useTranslation('mfe-admin');
  const [window, setWindow] = useState<HealthWindow>('15m');
  const { data, error, isLoading } = useReleasesQuery();
  const { data: access } = useConsoleAccessQuery();
  const canChange = access?.permissions.includes('console.releases.change') ?? false;
  return (
    <>
      <p>{t('releases.intro')}</p>
      <WindowChoice value={window} onChange={setWindow} />
      <ProgressBar active={isLoading} label={t('releases.loading')} />
      <FormErrors messages={formErrorsOf(t, error).form} />
      <div className="admin-releases">
        {(data?.remotes ?? []).map((release) => (
          <ReleaseCard key={release.id} release={release} window={window} canChange={canChange} />
        ))}
      </div>
      <ReleaseHistory />
    </>
  );
}

/**
 * `/admin/releases` (issue 51): every remote's releases, their health and their history, for release managers and
 * platform administrators.
 */
export function ReleasesPage() {
  return (
    <ConsoleLayout titleKey="routes.releases" permission="console.releases.read" path={ADMIN_RELEASES_PATH}>
      <Releases />
    </ConsoleLayout>
  );
}
