import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  ADMIN_PEOPLE_PATH,
  ADMIN_PERSON_PATH,
  describeUserAgent,
  type SessionNetwork,
} from 'shared-contracts';
import { ResultStatus, useConsoleAccessQuery } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { ConsolePerson } from 'shared-contracts/console';
import { Button, FormErrors, ProgressBar } from 'shared-contracts/ui';
import { formatWhen } from '../shared/format';
import { ConsoleLayout } from '../shared/console-layout';
import { PersonActionDialog, type PersonDialogKind } from './person-action-dialog';
import { PERSON_ACTIONS, useConsolePersonQuery, type PersonAction } from './people.api';

/** A list section of the person's page: its heading, and its items or "none". */
function Section({ title, items }: { title: string; items: ReactNode[] }) {
  const { t } = useTranslation('mfe-admin');
  return (
    <section className="hr-card" aria-label={title}>
      <h2>{title}</h2>
      {items.length > 0 ? (
        <ul className="admin-list">{items}</ul>
      ) : (
        <p className="admin-muted">{t('people.none')}</p>
      )}
    </section>
  );
}

function When({ at }: { at: string | null }) {
  const { t, i18n } = useTranslation('mfe-admin');
  return at ? <time dateTime={at}>{formatWhen(at, i18n.language)}</time> : <>{t('people.never')}</>;
}

function networkText(
  t: (key: string, values?: Record<string, unknown>) => string,
  network: SessionNetwork | null,
) {
  if (!network) return t('people.networks.unknown');
  return network.kind === 'network'
    ? t('people.networks.network', { prefix: network.prefix ?? '' })
    : t(`people.networks.${network.kind}`);
}

/** "Chrome on Linux", as the security centre names a session's browser; the user agent itself when it names neither. */
function browserText(t: (key: string, values?: Record<string, unknown>) => string, userAgent: string) {
  const agent = describeUserAgent(userAgent);
  return agent ? t('people.browserOn', agent) : userAgent;
}

/** Which plain actions apply to the person as they are (disable or enable, never both). */
function actionsFor(person: ConsolePerson): PersonAction[] {
  return PERSON_ACTIONS.filter((call) =>
    call === 'DisablePerson'
      ? !person.account.disabled
      : call === 'EnablePerson'
        ? person.account.disabled
        : true,
  );
}

function Person({ person, canChange }: { person: ConsolePerson; canChange: boolean }) {
  const { t } = useTranslation('mfe-admin');
  const [dialog, setDialog] = useState<PersonDialogKind | undefined>(undefined);
  const [result, setResult] = useState('');
  const yesNo = (value: boolean) => (value ? t('people.yes') : t('people.no'));
  const open = (what: PersonDialogKind) => {
    setResult('');
    setDialog(what);
  };
  const { account } = person;
  return (
    <div className="admin-person" data-testid="person">
      <section className="hr-card" aria-labelledby="person-account">
        <h2 id="person-account">
          <bdi>{person.displayName}</bdi> (<bdi>{person.username}</bdi>)
        </h2>
        <dl className="admin-facts">
          <div>
            <dt>{t('people.email')}</dt>
            <dd>
              <bdi>{person.email ?? '—'}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t('people.state')}</dt>
            <dd data-testid="person-state">{account.disabled ? t('people.disabled') : t('people.active')}</dd>
          </div>
          <div>
            <dt>{t('people.passwordChangedAt')}</dt>
            <dd>
              <When at={account.passwordChangedAt} />
            </dd>
          </div>
          <div>
            <dt>{t('people.mustChangePassword')}</dt>
            <dd>{yesNo(account.mustChangePassword)}</dd>
          </div>
          <div>
            <dt>{t('people.twoStepRequired')}</dt>
            <dd data-testid="person-two-step-required">{yesNo(account.twoStepRequired)}</dd>
          </div>
          <div>
            <dt>{t('people.vendor')}</dt>
            <dd>{yesNo(account.vendor)}</dd>
          </div>
        </dl>
      </section>
      {canChange ? (
        <section className="hr-card" aria-labelledby="person-actions">
          <h2 id="person-actions">{t('people.actionsTitle')}</h2>
          <div className="admin-release__actions">
            {actionsFor(person).map((call) => (
              <Button
                key={call}
                type="button"
                variant={call === 'DisablePerson' ? 'danger' : 'secondary'}
                onClick={() => open({ kind: 'action', call })}
                data-testid={`person-action-${call}`}
              >
                {t(`people.actions.${call}.label`)}
              </Button>
            ))}
            <Button
              type="button"
              variant="secondary"
              onClick={() => open({ kind: 'addMembership' })}
              data-testid="person-action-AddPersonMembership"
            >
              {t('people.addMembership.label')}
            </Button>
          </div>
          <ResultStatus message={result} testId="person-result" />
        </section>
      ) : null}
      <Section
        title={t('people.methods')}
        items={person.signInMethods.map((kind) => (
          <li key={kind}>{t(`people.methodKinds.${kind}`)}</li>
        ))}
      />
      <Section
        title={t('people.passkeys')}
        items={person.passkeys.map((passkey, index) => (
          <li key={index}>
            <bdi>{passkey.name}</bdi> — {t('people.added')} <When at={passkey.createdAt} />;{' '}
            {t('people.lastUsed')} <When at={passkey.lastUsedAt} />
          </li>
        ))}
      />
      <Section
        title={t('people.sessions')}
        items={person.sessions.map((session, index) => (
          <li key={index}>
            {networkText(t, session.network)} — {t('people.signedIn')} <When at={session.createdAt} />;{' '}
            {t('people.lastSeen')} <When at={session.lastSeenAt} />
            {session.userAgent ? (
              <>
                {' '}
                — <bdi className="admin-muted">{browserText(t, session.userAgent)}</bdi>
              </>
            ) : null}
          </li>
        ))}
      />
      <Section
        title={t('people.rememberedBrowsers')}
        items={person.rememberedBrowsers.map((browser, index) => (
          <li key={index}>
            {t('people.added')} <When at={browser.createdAt} />; {t('people.lastUsed')}{' '}
            <When at={browser.lastUsedAt} />
          </li>
        ))}
      />
      <Section
        title={t('people.linkedAccounts')}
        items={person.linkedAccounts.map((link, index) => (
          <li key={index}>
            <bdi>{link.provider}</bdi> — <When at={link.linkedAt} />
          </li>
        ))}
      />
      <Section
        title={t('people.customerRoles')}
        items={person.customers.map((customer) => (
          <li key={customer.id} data-testid={`person-customer-${customer.id}`}>
            <bdi>{customer.name}</bdi>: {customer.roles.map((role) => t(`people.roles.${role}`)).join(', ')}
            {canChange && customer.canChange ? (
              <>
                {' '}
                <Button
                  type="button"
                  variant="secondary"
                  onClick={() =>
                    open({ kind: 'removeMembership', customerId: customer.id, customerName: customer.name })
                  }
                >
                  {t('people.removeMembership.label')}
                </Button>
              </>
            ) : null}
          </li>
        ))}
      />
      <Section
        title={t('people.events')}
        items={person.recentEvents.map((event, index) => (
          <li key={index}>
            <When at={event.at} /> —{' '}
            {t(`people.eventKinds.${event.kind.replaceAll('.', '_')}`, { defaultValue: event.kind })}{' '}
            <code className="admin-muted">{event.kind}</code>
          </li>
        ))}
      />
      {dialog ? (
        <PersonActionDialog
          what={dialog}
          person={person}
          onClose={() => setDialog(undefined)}
          onDone={(message) => {
            setDialog(undefined);
            setResult(message);
          }}
        />
      ) : null}
    </div>
  );
}

function PersonView({ id }: { id: string }) {
  const { t } = useTranslation('mfe-admin');
  const { data, error, isLoading } = useConsolePersonQuery({ id }, { skip: id === '' });
  const { data: access } = useConsoleAccessQuery();
  const canChange = access?.permissions.includes('console.people.change') ?? false;
  const status = error && 'status' in error ? error.status : undefined;
  // 404: no such account; 403: an account outside the caller's reach (issue 52, ADR 0061), shown nothing of.
  const missing = id === '' || status === 404 || status === 403;
  return (
    <>
      <p>
        <Link to={ADMIN_PEOPLE_PATH}>{t('people.back')}</Link>
      </p>
      <ProgressBar active={isLoading} label={t('people.loading')} />
      {missing ? (
        <p role="status" data-testid="person-missing">
          {t(status === 403 ? 'people.outOfReach' : 'people.notFound')}
        </p>
      ) : (
        <FormErrors messages={formErrorsOf(t, error).form} />
      )}
      {data && !missing ? <Person person={data} canChange={canChange} /> : null}
    </>
  );
}

/**
 * `/admin/person?id=…` (issue 52): one person's account, ways in, sessions, customers and recent sign-ins, and the
 * changes the caller may make, each confirmed with a reason. A person outside the caller's reach is refused (403) and
 * said to be so; an unknown one is "not found".
 */
export function PersonPage() {
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  return (
    <ConsoleLayout
      titleKey="routes.person"
      permission="console.people.read"
      path={`${ADMIN_PERSON_PATH}?id=${encodeURIComponent(id)}`}
    >
      <PersonView id={id} />
    </ConsoleLayout>
  );
}
