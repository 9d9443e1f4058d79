import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_LOCALE,
  matchSupportedLocale,
  type AccountSession,
  type SecurityCentreView,
} from 'shared-contracts';
import { ConfirmDialog } from 'shared-contracts/account-ui';
import 'shared-contracts/account-ui/account-ui.css';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { describeUserAgent, formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import { useSignOutOtherSessionsMutation, useSignOutSessionMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

type Translate = ReturnType<typeof useTranslation>['t'];

/** Where a session signed in from, as a person reads it (ADR 0049): never a full address, the server sends none. */
function placeOf(session: AccountSession, t: Translate): string {
  const { network } = session;
  if (!network) return t('sessions.network.unknown');
  if (network.kind === 'thisDevice') return t('sessions.network.thisDevice');
  if (network.kind === 'localNetwork') return t('sessions.network.localNetwork');
  return t('sessions.network.network', { prefix: network.prefix ?? '' });
}

/** One session: what it is, where from, since when; and, for another browser, its own "Sign out". */
function SessionRow({
  session,
  dateLanguage,
  signingOut,
  onSignOut,
}: {
  session: AccountSession;
  dateLanguage: string;
  signingOut: boolean;
  onSignOut: () => void;
}) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const detailsId = useId();
  const agent = describeUserAgent(session.userAgent);
  const name = agent ? t('sessions.browser', agent) : t('sessions.unknownBrowser');
  // The loopback address is one machine: "same network" would say nothing more there.
  const sameNetwork = session.sameNetworkAsCurrent && session.network?.kind !== 'thisDevice';
  const where = [
    agent ? t(`sessions.device.${agent.deviceType}`) : null,
    placeOf(session, t),
    sameNetwork ? t('sessions.sameNetwork') : null,
  ].filter((part): part is string => part !== null);
  return (
    <li className="security-centre__item" data-testid="session" data-current={session.current || undefined}>
      <span className="security-centre__item-text" id={detailsId}>
        <strong>{name}</strong>
        {session.current ? (
          <span className="security-centre__badge" data-testid="session-current">
            ({t('sessions.thisBrowser')})
          </span>
        ) : null}
        <br />
        <span data-testid="session-where">{where.join(' · ')}</span>
        <br />
        {t('sessions.signedInAt', { date: formatWhen(session.createdAt, dateLanguage) })}
        <br />
        {t('sessions.lastActive', { date: formatWhen(session.lastSeenAt, dateLanguage) })}
      </span>
      {!session.current ? (
        <Button
          variant="secondary"
          loading={signingOut}
          // Two sessions may share a name ("Chrome on Windows"): the row's details tell them apart.
          aria-describedby={detailsId}
          onClick={onSignOut}
        >
          {t('sessions.signOut', { name })}
        </Button>
      ) : null}
    </li>
  );
}

/**
 * Signed-in sessions (issue 49, ADR 0049): each with its browser, system and device type, a coarse place, first and
 * last seen; this browser first and labelled, the others newest first (the server's order). Sign out one, or every
 * other after a confirmation.
 */
export function SessionsSection({ view }: { view: SecurityCentreView }) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [signOut, signingOut] = useSignOutSessionMutation();
  const [signOutOthers, signingOutOthers] = useSignOutOtherSessionsMutation();
  const [confirming, setConfirming] = useState(false);
  const errors = useFormErrors(signingOut.error ?? signingOutOthers.error);
  const others = view.sessions.filter((s) => !s.current);
  // Dates in the language of the text shown: a language without translations shows en-GB's text and dates.
  const dateLanguage = matchSupportedLocale(i18n.language) ?? DEFAULT_LOCALE;
  const one = async (id: string) => {
    const result = await signOut({ id });
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('sessions.signedOut') });
  };
  const all = async () => {
    const result = await signOutOthers();
    setConfirming(false);
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
            {view.sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                dateLanguage={dateLanguage}
                signingOut={signingOut.isLoading && signingOut.originalArgs?.id === session.id}
                onSignOut={() => void one(session.id)}
              />
            ))}
          </ul>
          {others.length > 0 ? (
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              {t('sessions.signOutOthers')}
            </Button>
          ) : null}
        </Stack>
      </section>
      <ConfirmDialog
        open={confirming}
        title={t('sessions.confirmOthers.title')}
        message={<p>{t('sessions.confirmOthers.message', { count: others.length })}</p>}
        confirmLabel={t('sessions.confirmOthers.confirm')}
        cancelLabel={t('sessions.confirmOthers.cancel')}
        danger
        onConfirm={all}
        onCancel={() => setConfirming(false)}
        testId="sign-out-others-dialog"
      />
    </Card>
  );
}
