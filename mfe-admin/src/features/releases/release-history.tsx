import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REMOTE_IDS, type RemoteId } from 'shared-contracts';
import { DateField, type DateFieldStrings } from 'shared-contracts/account-ui';
import type { ReleaseEvent, ReleaseHistoryRequest } from 'shared-contracts/console';
import { formatCount, formatPercent, formatRate, formatWhen, isolate } from '../shared/format';
import { useReleaseHistoryQuery } from './releases.api';

/** The guard's figures the page names (others are shown by their key). Rates are 0–1. */
const FIGURES = [
  'canaryPageLoads',
  'canaryFailures',
  'canaryFailureRate',
  'activePageLoads',
  'activeFailures',
  'activeFailureRate',
  'minPageLoads',
  'minFailureRate',
  'ratio',
] as const;

function Figures({ figures }: { figures: Record<string, number> }) {
  const { t, i18n } = useTranslation('mfe-admin');
  const known = (key: string): key is (typeof FIGURES)[number] =>
    (FIGURES as readonly string[]).includes(key);
  return (
    <dl className="admin-figures">
      {Object.entries(figures).map(([key, value]) => (
        <div key={key}>
          <dt>{known(key) ? t(`history.figures.${key}`) : key}</dt>
          <dd>{/rate$/i.test(key) ? formatRate(value, i18n.language) : formatCount(value, i18n.language)}</dd>
        </div>
      ))}
    </dl>
  );
}

function EventItem({ event }: { event: ReleaseEvent }) {
  const { t, i18n } = useTranslation('mfe-admin');
  const locale = i18n.language;
  const actor = event.actor === 'guard' ? t('history.guardActor') : isolate(event.actor);
  return (
    <li className="admin-history__event" data-testid="release-event" data-action={event.action}>
      <time dateTime={event.at} className="admin-muted">
        {formatWhen(event.at, locale)}
      </time>
      <p className="admin-history__what">
        {t(`history.actions.${event.action}`, {
          remote: isolate(event.remote),
          version: event.version ? isolate(event.version) : '—',
          share: event.percent === null ? '—' : formatPercent(event.percent, locale),
        })}
      </p>
      <p className="admin-muted">{t('history.actor', { actor })}</p>
      {event.reason ? <p>{t('history.reason', { reason: event.reason })}</p> : null}
      {event.figures ? <Figures figures={event.figures} /> : null}
    </li>
  );
}

/**
 * The releases' history (issue 51), newest first: who did what, to which version, at what share, why, and the
 * guard's figures when the guard ended a canary; filtered by remote and by a range of days with the date picker
 * (SPEC.md §5: it updates while typing, 300 ms after the last keystroke). Asked again after every change (tag
 * `Releases`).
 */
export function ReleaseHistory() {
  const { t, i18n } = useTranslation('mfe-admin');
  const remoteId = useId();
  const [remote, setRemote] = useState<RemoteId | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const request: ReleaseHistoryRequest = {
    ...(remote ? { remote } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const { data, isFetching, isError } = useReleaseHistoryQuery(request);
  const strings: DateFieldStrings = {
    chooseDate: t('dates.chooseDate'),
    previousMonth: t('dates.previousMonth'),
    nextMonth: t('dates.nextMonth'),
    hint: (example) => t('dates.hint', { example }),
    invalid: (example) => t('dates.invalid', { example }),
    tooEarly: (date) => t('dates.tooEarly', { date }),
    tooLate: (date) => t('dates.tooLate', { date }),
  };
  const events = data?.events ?? [];
  return (
    <section className="admin-history" aria-labelledby="release-history-title">
      <h2 id="release-history-title">{t('history.title')}</h2>
      <div className="admin-history__filters">
        <div className="hr-field">
          <label className="hr-field__label" htmlFor={remoteId}>
            {t('history.remote')}
          </label>
          <select
            id={remoteId}
            className="hr-field__input"
            value={remote}
            onChange={(event) => setRemote(event.target.value as RemoteId | '')}
          >
            <option value="">{t('history.allRemotes')}</option>
            {REMOTE_IDS.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
        <DateField
          label={t('history.from')}
          value={from}
          onChange={setFrom}
          locale={i18n.language}
          strings={strings}
          max={to || undefined}
          testId="history-from"
        />
        <DateField
          label={t('history.to')}
          value={to}
          onChange={setTo}
          locale={i18n.language}
          strings={strings}
          min={from || undefined}
          testId="history-to"
        />
      </div>
      <p role="status" className="admin-muted" data-testid="history-count">
        {isFetching
          ? t('history.loading')
          : isError
            ? t('history.unavailable')
            : t('history.count', { count: events.length })}
      </p>
      <ol className="admin-history__list">
        {events.map((event) => (
          <EventItem key={event.id} event={event} />
        ))}
      </ol>
    </section>
  );
}
