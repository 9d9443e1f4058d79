import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DependencyState, OverallState, RemoteStatus, SystemStatus } from 'shared-contracts';
import { Alert, Card, Page, Stack } from 'shared-contracts/ui';
import { useSystemStatusQuery } from '../platform/platform.api';
import './devops-page.css';

/** How often the page asks again; the gateway caches its probes for a few seconds, so this stays cheap. */
const REFRESH_MS = 10_000;

type RowState = DependencyState | 'active' | 'canary' | 'unpublished';

interface StatusRow {
  key: string;
  name: string;
  version: string | null;
  state: RowState;
  detail?: string;
  since: string | null;
}

function SinceTime({ iso }: { iso: string | null }) {
  const { i18n } = useTranslation('common');
  if (!iso) return <span aria-hidden="true">—</span>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span aria-hidden="true">—</span>;
  return (
    <time dateTime={iso}>
      {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)}
    </time>
  );
}

function remoteRow(remote: RemoteStatus, t: TFunction<'common'>): StatusRow {
  if (!remote.version && !remote.canary)
    return { key: remote.id, name: remote.id, version: null, state: 'unpublished', since: null };
  return {
    key: remote.id,
    name: remote.id,
    version: remote.version,
    state: remote.canary ? 'canary' : 'active',
    ...(remote.canary
      ? {
          detail: t('devops.canaryDetail', {
            version: remote.canary.version,
            percent: remote.canary.percent,
          }),
        }
      : {}),
    since: remote.since,
  };
}

function rowsOf(status: SystemStatus, t: TFunction<'common'>): StatusRow[] {
  return [
    {
      key: 'gateway',
      name: t('devops.names.gateway'),
      version: status.gateway.version,
      state: 'ok',
      since: status.gateway.since,
    },
    ...status.dependencies.map((d) => ({
      key: d.name,
      name: t(`devops.names.${d.name}`),
      version: null,
      state: d.state,
      since: d.since,
    })),
    ...status.remotes.map((r) => remoteRow(r, t)),
  ];
}

/**
 * `/devops` (SPEC.md §2: no sidebar, no navbar): the platform team's and release managers' view of `SystemStatus`
 * — the overall state, one row per dependency and per remote with its version, state and since when — refreshed
 * every few seconds. A table on wide screens; each row becomes a small card on a phone (devops-page.css).
 */
export function DevopsPage() {
  const { t } = useTranslation('common');
  const { data, isError, isLoading } = useSystemStatusQuery(undefined, { pollingInterval: REFRESH_MS });
  const overall: OverallState | undefined = data?.status;
  return (
    <Page title={t('routes.devops')} pageId="devops">
      <Stack>
        <p className="hr-devops__overall" role="status" aria-live="polite" data-testid="devops-overall">
          {overall ? (
            <>
              {t('devops.overall')}{' '}
              <strong className={`hr-devops__state hr-devops__state--${overall}`} data-state={overall}>
                {t(`devops.overallStates.${overall}`)}
              </strong>
            </>
          ) : isLoading ? (
            t('devops.loading')
          ) : null}
        </p>
        {isError ? <Alert kind="error">{t('devops.unavailable')}</Alert> : null}
        {data ? (
          <Card>
            <table className="hr-devops__table">
              <caption>
                {t('devops.caption')}{' '}
                <span className="hr-devops__checked">
                  {t('devops.checkedAt')} <SinceTime iso={data.checkedAt} />
                </span>
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('devops.columns.name')}</th>
                  <th scope="col">{t('devops.columns.version')}</th>
                  <th scope="col">{t('devops.columns.state')}</th>
                  <th scope="col">{t('devops.columns.since')}</th>
                </tr>
              </thead>
              <tbody>
                {rowsOf(data, t).map((row) => (
                  <tr key={row.key} data-testid={`devops-row-${row.key}`} data-state={row.state}>
                    <th scope="row">{row.name}</th>
                    <td data-label={t('devops.columns.version')} data-testid="devops-version">
                      {row.version ?? <span aria-hidden="true">—</span>}
                    </td>
                    <td data-label={t('devops.columns.state')}>
                      <span className={`hr-devops__state hr-devops__state--${row.state}`}>
                        {t(`devops.states.${row.state}`)}
                      </span>
                      {row.detail ? (
                        <span className="hr-devops__detail" data-testid="devops-canary">
                          {' '}
                          {row.detail}
                        </span>
                      ) : null}
                    </td>
                    <td data-label={t('devops.columns.since')}>
                      <SinceTime iso={row.since} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        ) : null}
      </Stack>
    </Page>
  );
}
