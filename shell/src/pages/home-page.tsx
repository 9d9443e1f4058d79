import { useTranslation } from 'react-i18next';
import { Link, useRouteLoaderData } from 'react-router';
import { Card, Page, Stack } from 'shared-contracts/ui';
import type { GuardData } from '../router/guard';
import { SignedInCard } from './signed-in-card';

const SECTIONS = ['about', 'help', 'privacy'] as const;

/**
 * `/`: who is signed in and where to go on (or where to start), what this site is, and in-page sections (hash links
 * scroll smoothly; "#" to the top).
 */
export function HomePage() {
  const { t } = useTranslation('common');
  const data = useRouteLoaderData<GuardData>('root');
  const user = data?.user;
  return (
    <Page title={t('routes.home')} pageId="home">
      <Stack>
        {user?.isAuthenticated ? (
          <SignedInCard user={user} />
        ) : (
          <Card>
            <Stack>
              <p>{t('home.intro')}</p>
              <Link to="/account/login">{t('home.signIn')}</Link>
            </Stack>
          </Card>
        )}
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
              <p className="shell__section-links">
                {id === 'help' ? <Link to="/account/recover">{t('accountIndex.recover')}</Link> : null}
                <a href="#">{t('home.backToTop')}</a>
              </p>
            </section>
          ))}
        </div>
      </Stack>
    </Page>
  );
}
