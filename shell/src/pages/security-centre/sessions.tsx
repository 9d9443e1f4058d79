import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { describeUserAgent, formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import { useSignOutOtherSessionsMutation, useSignOutSessionMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** Signed-in sessions: where and when; sign out one, or every other. */
export function SessionsSection({ view }: { view: SecurityCentreView }) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [signOut, signingOut] = useSignOutSessionMutation();
  const [signOutOthers, signingOutOthers] = useSignOutOtherSessionsMutation();
  const errors = useFormErrors(signingOut.error ?? signingOutOthers.error);
  const others = view.sessions.filter((s) => !s.current);
  const one = async (id: string) => {
    const result = await signOut({ id });
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('sessions.signedOut') });
  };
  const all = async () => {
    const result = await signOutOthers();
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('sessions.othersSignedOut') });
  };
  return (
    <Card>
      <section aria-labelledby="sessions-heading" data-testid="sessions">
        <Stack>
          <h2 id="sessions-heading">{t('sessions.heading')}</h2>
          <FormErrors messages={errors.form} />
          <ul className="hr-stack hr-list-plain">
            {view.sessions.map((session) => {
              const agent = describeUserAgent(session.userAgent);
              const name = session.current
                ? t('sessions.thisBrowser')
                : agent
                  ? t('sessions.browser', agent)
                  : t('sessions.unknownBrowser');
              return (
                <li key={session.id} className="security-centre__item" data-testid="session">
                  <span className="security-centre__item-text">
                    <strong>{name}</strong>
                    {session.current && agent ? <span> ({t('sessions.browser', agent)})</span> : null}
                    <br />
                    {t('sessions.signedInAt', { date: formatWhen(session.createdAt, i18n.language) })}
                    {session.ip ? (
                      <>
                        {' '}
                        <span dir="ltr">{t('sessions.from', { ip: session.ip })}</span>
                      </>
                    ) : null}
                    <br />
                    {t('sessions.lastActive', { date: formatWhen(session.lastSeenAt, i18n.language) })}
                  </span>
                  {!session.current ? (
                    <Button
                      variant="secondary"
                      loading={signingOut.isLoading && signingOut.originalArgs?.id === session.id}
                      onClick={() => void one(session.id)}
                    >
                      {t('sessions.signOut', { name })}
                    </Button>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {others.length > 0 ? (
            <Button variant="secondary" loading={signingOutOthers.isLoading} onClick={() => void all()}>
              {t('sessions.signOutOthers')}
            </Button>
          ) : null}
        </Stack>
      </section>
    </Card>
  );
}
