import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isKnownPage, resolveRedirectTarget, safeReturnUrl } from 'shared-contracts';
import { Page } from 'shared-contracts/ui';

/**
 * `/redirect?returnUrl=`: follows only a safe returnUrl (S31: a same-origin relative path; anything else goes
 * home). A client route is navigated in-app; a server path (e.g. the OIDC interaction) is a full load.
 */
export function RedirectPage() {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const target = safeReturnUrl(search.get('returnUrl') ?? search.get('ReturnUrl'));

  useEffect(() => {
    const resolved = resolveRedirectTarget(target, window.location.origin, isKnownPage);
    if (resolved.kind === 'full') window.location.replace(resolved.url);
    // via-redirect would come back here: an unknown local path is navigated to directly (it shows not-found).
    else void navigate(resolved.kind === 'via-redirect' ? target : resolved.path, { replace: true });
  }, [navigate, target]);

  return (
    <Page title={t('routes.redirect')} pageId="redirect">
      <p aria-live="polite">{t('redirect.body')}</p>
    </Page>
  );
}
