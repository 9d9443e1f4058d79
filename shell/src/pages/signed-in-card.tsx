import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { returnUrlOf, safeReturnUrl, type CurrentUser, withReturnUrl } from 'shared-contracts';
import { useUserQuery } from 'shared-contracts/api';
import { Card, Stack } from 'shared-contracts/ui';
import { useApplicationsQuery } from './applications.api';
import { ProfileAvatar } from './profile-avatar';

/**
 * Who is signed in (their picture, or their initial, beside their name), and the ways on: Continue to the page
 * that asked for the sign-in (a returnUrl) or to each application that starts its own sign-in, the security centre
 * (issue 49: it could only be reached by typing `/account/`), and Sign out. Shown on `/` and `/account/` to a
 * signed-in person; `/account/` is the security centre itself, so it passes `securityCentreLink={false}`.
 */
export function SignedInCard({
  user,
  securityCentreLink = true,
}: {
  user: CurrentUser;
  securityCentreLink?: boolean;
}) {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const { data: applications = [] } = useApplicationsQuery();
  const returnUrl = safeReturnUrl(returnUrlOf(Object.fromEntries(search)));
  // `user` is this navigation's (the guard's); the User query follows what changed since, such as a display name
  // saved in the security centre (UpdateProfile invalidates `User`: issue 49), without a reload.
  const { data: live } = useUserQuery();
  const current = live?.isAuthenticated ? live : user;
  const name = current.displayName ?? current.userName ?? '';
  return (
    <Card className="shell__signed-in">
      <Stack>
        <div className="shell__person">
          <ProfileAvatar name={name} />
          <p>{t('home.signedInAs', { name })}</p>
        </div>
        {returnUrl !== '/' ? (
          <Link className="hr-button hr-button--primary" to={withReturnUrl('/redirect', returnUrl)}>
            {t('home.continue')}
          </Link>
        ) : null}
        {applications.length > 0 ? (
          <nav aria-label={t('home.applications')}>
            <ul className="shell__applications">
              {applications.map((application) => (
                <li key={application.url}>
                  <a className="hr-button hr-button--primary" href={application.url}>
                    {t('home.continueTo', { name: application.name })}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {securityCentreLink ? (
          <Link className="hr-button hr-button--secondary" to="/account/" data-testid="security-centre-link">
            {t('accountMenu.securityCentre')}
          </Link>
        ) : null}
        <Link className="hr-button hr-button--secondary" to="/account/logout">
          {t('home.signOut')}
        </Link>
      </Stack>
    </Card>
  );
}
