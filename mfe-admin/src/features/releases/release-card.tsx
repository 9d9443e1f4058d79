import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ResultStatus, useFocusAfterRemoval } from 'shared-contracts/account-ui';
import type { HealthWindow, RemoteRelease } from 'shared-contracts/console';
import { Button } from 'shared-contracts/ui';
import { formatBytes, formatCount, formatPercent, formatRate, formatWhen, isolate } from '../shared/format';
import { ReleaseActionDialog, type ReleaseActionKind } from './release-action-dialog';
import { HEALTH_REFRESH_MS, useReleaseHealthQuery } from './releases.api';

/** Props of {@link ReleaseCard}. */
export interface ReleaseCardProps {
  release: RemoteRelease;
  /** The health window chosen on the page. */
  window: HealthWindow;
  /** Whether the caller may change releases (`console.releases.change`); else the card only reads. */
  canChange: boolean;
}

/** "When, by whom" of a published or activated version. */
function WhenBy({ at, by }: { at: string | null; by: string | null }) {
  const { t, i18n } = useTranslation('mfe-admin');
  if (!at) return <>{t('releases.never')}</>;
  const when = <time dateTime={at}>{formatWhen(at, i18n.language)}</time>;
  return by ? (
    <>
      {when} <span className="admin-muted">{t('releases.by', { actor: isolate(by) })}</span>
    </>
  ) : (
    when
  );
}

/**
 * One remote on the releases page (issue 51): its active version, its canary and share, its canary guard, its
 * health per version over the chosen window (asked again every 10 s), every published version with when and by whom
 * it was published and activated, its size on the wire and the shared versions it requires; and the actions, each
 * confirmed in a dialog. The result of an action is said in the card's own live region.
 */
export function ReleaseCard({ release, window, canChange }: ReleaseCardProps) {
  const { t, i18n } = useTranslation('mfe-admin');
  const locale = i18n.language;
  const [action, setAction] = useState<ReleaseActionKind | undefined>(undefined);
  const [result, setResult] = useState('');
  const { id, active, canary, guard } = release;
  const titleId = `release-${id}-title`;
  // "End the canary" leaves with the canary: focus then goes to the card's heading, not to the top of the page.
  const [headingRef, removed] = useFocusAfterRemoval<HTMLHeadingElement>(canary ? ['endCanary'] : []);
  const open = (kind: ReleaseActionKind) => {
    setResult('');
    setAction(kind);
  };
  return (
    <section className="hr-card admin-release" aria-labelledby={titleId} data-testid={`release-${id}`}>
      <h2 id={titleId} className="admin-release__title" ref={headingRef} tabIndex={-1}>
        <bdi>{id}</bdi>
      </h2>
      <dl className="admin-facts">
        <div>
          <dt>{t('releases.active')}</dt>
          <dd data-testid={`release-${id}-active`}>
            <bdi>{active ?? t('releases.none')}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('releases.canary')}</dt>
          <dd data-testid={`release-${id}-canary`}>
            {canary ? (
              <>
                {t('releases.canaryValue', {
                  version: isolate(canary.version),
                  share: formatPercent(canary.percent, locale),
                })}{' '}
                {canary.startedAt ? (
                  <span className="admin-muted">
                    (<WhenBy at={canary.startedAt} by={canary.startedBy} />)
                  </span>
                ) : null}
              </>
            ) : (
              t('releases.noCanary')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('releases.guard')}</dt>
          <dd>
            {t('releases.guardValue', {
              pageLoads: formatCount(guard.minPageLoads, locale),
              rate: formatRate(guard.minFailureRate, locale),
              ratio: formatCount(guard.ratio, locale),
            })}
          </dd>
        </div>
      </dl>
      {canChange ? (
        <div className="admin-release__actions">
          <Button
            variant="secondary"
            onClick={() => open('startCanary')}
            disabled={release.versions.length < 2}
          >
            {canary ? t('actions.changeCanary') : t('actions.startCanary.open')}
          </Button>
          {canary ? (
            <Button variant="secondary" onClick={() => open('endCanary')}>
              {t('actions.endCanary.open')}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => open('promote')} disabled={release.versions.length < 2}>
            {t('actions.promote.open')}
          </Button>
          <Button variant="secondary" onClick={() => open('rollBack')} disabled={!active}>
            {t('actions.rollBack.open')}
          </Button>
          <Button variant="secondary" onClick={() => open('guard')}>
            {t('actions.guard.open')}
          </Button>
        </div>
      ) : null}
      <ResultStatus message={result} testId={`release-${id}-result`} />
      <HealthTable remote={release} window={window} />
      <VersionsTable release={release} />
      {action ? (
        <ReleaseActionDialog
          kind={action}
          release={release}
          onClose={() => setAction(undefined)}
          onDone={(message) => {
            if (action === 'endCanary') removed('endCanary');
            setAction(undefined);
            setResult(message);
          }}
        />
      ) : null}
    </section>
  );
}

/** A table that scrolls sideways on a phone, reachable with the keyboard (a focusable, named region). */
function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function HealthTable({ remote, window }: { remote: RemoteRelease; window: HealthWindow }) {
  const { t, i18n } = useTranslation('mfe-admin');
  const locale = i18n.language;
  const { data, isError } = useReleaseHealthQuery(
    { remote: remote.id, window },
    { pollingInterval: HEALTH_REFRESH_MS, skipPollingIfUnfocused: true },
  );
  const caption = t('health.caption', { window: t(`health.windows.${window}`) });
  if (isError) return <p className="admin-muted">{t('health.unavailable')}</p>;
  return (
    <Scroll label={`${caption}: ${remote.id}`}>
      <table className="admin-table" data-testid={`health-${remote.id}`}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('health.version')}</th>
            <th scope="col">{t('health.pageLoads')}</th>
            <th scope="col">{t('health.loadFailures')}</th>
            <th scope="col">{t('health.clientErrors')}</th>
            <th scope="col">{t('health.failureRate')}</th>
          </tr>
        </thead>
        <tbody>
          {(data?.versions ?? []).map((v) => (
            <tr key={v.version} data-role={v.role}>
              <th scope="row">
                <bdi>{v.version}</bdi> <span className="admin-badge">{t(`health.roles.${v.role}`)}</span>
              </th>
              <td>{formatCount(v.pageLoads, locale)}</td>
              <td>{formatCount(v.loadFailures, locale)}</td>
              <td>{formatCount(v.clientErrors, locale)}</td>
              <td>{v.failureRate === null ? t('health.noLoads') : formatRate(v.failureRate, locale)}</td>
            </tr>
          ))}
          {data && data.versions.length === 0 ? (
            <tr>
              <td colSpan={5}>{t('health.empty')}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </Scroll>
  );
}

function VersionsTable({ release }: { release: RemoteRelease }) {
  const { t, i18n } = useTranslation('mfe-admin');
  const caption = t('versions.caption');
  const status = (version: string) =>
    version === release.active
      ? t('versions.active')
      : version === release.canary?.version
        ? t('versions.canary')
        : '';
  return (
    <Scroll label={`${caption}: ${release.id}`}>
      <table className="admin-table" data-testid={`versions-${release.id}`}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('versions.version')}</th>
            <th scope="col">{t('versions.published')}</th>
            <th scope="col">{t('versions.activated')}</th>
            <th scope="col">{t('versions.size')}</th>
            <th scope="col">{t('versions.requires')}</th>
          </tr>
        </thead>
        <tbody>
          {release.versions.map((v) => (
            <tr key={v.version}>
              <th scope="row">
                {v.version}{' '}
                {status(v.version) ? <span className="admin-badge">{status(v.version)}</span> : null}
              </th>
              <td>
                <WhenBy at={v.publishedAt} by={v.publishedBy} />
              </td>
              <td>
                <WhenBy at={v.activatedAt} by={v.activatedBy} />
              </td>
              <td>{formatBytes(v.bytesOnWire, i18n.language)}</td>
              <td>
                {Object.entries(v.requires).length === 0 ? (
                  t('versions.requiresNothing')
                ) : (
                  <ul className="admin-requires">
                    {Object.entries(v.requires).map(([name, range]) => (
                      <li key={name}>
                        <bdi>
                          <code>{name}</code> <code>{range}</code>
                        </bdi>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}
