import { useTranslation } from 'react-i18next';
import type { ApplicationWithSecret } from 'shared-contracts/console';

/** The secret of a client, shown once (after creation or rotation) with what to do with it. */
export function OneTimeSecret({ secret }: { secret: ApplicationWithSecret }) {
  const { t } = useTranslation('mfe-admin');
  return (
    <div className="admin-secret" data-testid="application-secret-panel">
      <p>{t('applications.secret.intro', { application: secret.application.name })}</p>
      <code dir="ltr" data-testid="application-secret">
        {secret.clientSecret}
      </code>
    </div>
  );
}
