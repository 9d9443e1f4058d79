import { useTranslation } from 'react-i18next';
import { Link, useRouteLoaderData } from 'react-router';
import { Card, Page, Stack } from 'shared-contracts/ui';
import type { GuardData } from '../router/guard';

const SECTIONS = ['about', 'help', 'privacy'] as const;

/** `/`: what this site is, where to start, and in-page sections (hash links scroll smoothly; "#" to the top). */
export function HomePage() {
  const { t } = useTranslation('common');
  const data = useRouteLoaderData<GuardData>('root');
  const user = data?.user;
  return (
    <Page title={t('routes.home')} pageId="home">
      <Stack>
        <Card>
          <Stack>
            {user?.isAuthenticated ? (
              <p>{t('home.signedInAs', { name: user.displayName ?? user.userName ?? '' })}</p>
            ) : (
              <p>{t('home.intro')}</p>
            )}
            {user?.isAuthenticated ? (
              <Link to="/account/logout">{t('home.signOut')}</Link>
            ) : (
              <Link to="/account/login">{t('home.signIn')}</Link>
            )}
          </Stack>
        </Card>
        <nav aria-label={t('home.contents')}>
          <ul>
            {SECTIONS.map((id) => (
              <li key={id}>
                <a href={`#${id}`}>{t(`home.sections.${id}.title`)}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="shell__sections">
          {SECTIONS.map((id) => (
            <section key={id} id={id} aria-labelledby={`${id}-heading`}>
              <h2 id={`${id}-heading`}>{t(`home.sections.${id}.title`)}</h2>
              <p>{t(`home.sections.${id}.body`)}</p>
              {id === 'help' ? <Link to="/account/recover">{t('accountIndex.recover')}</Link> : null}
              <a href="#">{t('home.backToTop')}</a>
            </section>
          ))}
        </div>
      </Stack>
    </Page>
  );
}
