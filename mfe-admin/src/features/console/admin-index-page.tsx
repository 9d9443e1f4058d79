import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useConsoleAccessQuery } from 'shared-contracts/account-ui';
import { ProgressBar } from 'shared-contracts/ui';
import { NoConsoleAccess } from '../shared/console-layout';
import { pagesFor } from '../shared/console-pages';

/** `/admin`: the first console page the caller may see (Releases for now), or the "no access" page. */
export function AdminIndexPage() {
  const { t } = useTranslation('mfe-admin');
  const navigate = useNavigate();
  const { data: access, isLoading } = useConsoleAccessQuery();
  const first = access ? pagesFor(access.permissions)[0] : undefined;
  useEffect(() => {
    // Replaced, not pushed: Back from the first page leaves the console instead of coming back here.
    if (first) void navigate(first.path, { replace: true });
  }, [first, navigate]);
  if (isLoading || !access || first) return <ProgressBar active label={t('console.loading')} />;
  return <NoConsoleAccess />;
}
