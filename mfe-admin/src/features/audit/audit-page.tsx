import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_API_BASE, ADMIN_AUDIT_PATH } from 'shared-contracts';
import { DateField, type DateFieldStrings } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { AuditEventView, ConsoleAuditRequest } from 'shared-contracts/console';
import { Button, FormErrors, ProgressBar, TextField } from 'shared-contracts/ui';
import { formatWhen } from '../shared/format';
import { ConsoleLayout } from '../shared/console-layout';
import { useConsoleAuditQuery } from './audit.api';
import { AuditRetentionSection } from './audit-retention';

const TEXT_FILTERS = ['actor', 'subject', 'kind', 'partnerId', 'customerId'] as const;
type TextFilter = (typeof TEXT_FILTERS)[number];
type Filter = Record<TextFilter | 'from' | 'to', string>;
const EMPTY: Filter = { actor: '', subject: '', kind: '', partnerId: '', customerId: '', from: '', to: '' };

/** The filter as the call's query: empty fields left out. */
function requestOf(filter: Filter, page: number): ConsoleAuditRequest {
  const request: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) if (value.trim()) request[key] = value.trim();
  if (page > 1) request.page = String(page);
  return request;
}

function EventRow({ event }: { event: AuditEventView }) {
  const { t, i18n } = useTranslation('mfe-admin');
  return (
    <tr data-testid="audit-row">
      <td>
        <time dateTime={event.at}>{formatWhen(event.at, i18n.language)}</time>
      </td>
      <td>
        <bdi>{event.kind}</bdi>
        {event.outcome === 'failure' ? <span className="admin-muted"> ({t('audit.failure')})</span> : null}
      </td>
      <td>
        <bdi>{event.actor ?? '—'}</bdi>
      </td>
      <td>
        <bdi>{event.subject ?? '—'}</bdi>
      </td>
      <td>{event.reason ?? ''}</td>
      <td>
        <bdi>{[event.partnerId, event.customerId].filter(Boolean).join(' / ') || '—'}</bdi>
      </td>
      <td>
        <bdi>{event.ip ?? '—'}</bdi>
      </td>
    </tr>
  );
}

function Audit() {
  const { t, i18n } = useTranslation('mfe-admin');
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [applied, setApplied] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(1);
  const request = requestOf(applied, page);
  const { data, error, isFetching } = useConsoleAuditQuery(request);
  const errors = formErrorsOf(t, error);
  const strings: DateFieldStrings = {
    chooseDate: t('dates.chooseDate'),
    previousMonth: t('dates.previousMonth'),
    nextMonth: t('dates.nextMonth'),
    hint: (example) => t('dates.hint', { example }),
    invalid: (example) => t('dates.invalid', { example }),
    tooEarly: (date) => t('dates.tooEarly', { date }),
    tooLate: (date) => t('dates.tooLate', { date }),
  };
  const set = (key: keyof Filter) => (value: string) => setDraft((old) => ({ ...old, [key]: value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    setApplied(draft);
    setPage(1);
  }
  const exportQuery = new URLSearchParams(requestOf(applied, 1)).toString();
  const events = data?.events ?? [];
  return (
    <>
      <p>{t('audit.intro')}</p>
      <form noValidate onSubmit={submit} className="admin-audit__filters" aria-label={t('audit.filters')}>
        {TEXT_FILTERS.map((key) => (
          <TextField
            key={key}
            label={t(`audit.${key}`)}
            autoComplete="off"
            value={draft[key]}
            onChange={(event) => set(key)(event.target.value)}
            errors={errors.field(key)}
          />
        ))}
        <DateField
          label={t('audit.from')}
          value={draft.from}
          onChange={set('from')}
          locale={i18n.language}
          strings={strings}
          max={draft.to || undefined}
          testId="audit-from"
        />
        <DateField
          label={t('audit.to')}
          value={draft.to}
          onChange={set('to')}
          locale={i18n.language}
          strings={strings}
          min={draft.from || undefined}
          testId="audit-to"
        />
        <div className="hr-dialog__actions">
          <Button type="submit">{t('audit.search')}</Button>
          <a
            className="hr-button hr-button--secondary"
            href={`${ACCOUNT_API_BASE}ConsoleAuditExport${exportQuery ? `?${exportQuery}` : ''}`}
            download
            data-testid="audit-export"
          >
            {t('audit.export')}
          </a>
        </div>
      </form>
      <FormErrors
        messages={[...errors.form, ...errors.field('from'), ...errors.field('to'), ...errors.field('page')]}
      />
      <ProgressBar active={isFetching} label={t('audit.loading')} />
      <p role="status" className="admin-muted" data-testid="audit-count">
        {isFetching ? '' : t('audit.count', { count: events.length, page })}
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table" data-testid="audit-table">
          <caption>{t('audit.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.when')}</th>
              <th scope="col">{t('audit.kind')}</th>
              <th scope="col">{t('audit.actor')}</th>
              <th scope="col">{t('audit.subject')}</th>
              <th scope="col">{t('audit.reason')}</th>
              <th scope="col">{t('audit.where')}</th>
              <th scope="col">{t('audit.ip')}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <EventRow key={event.id} event={event} />
            ))}
          </tbody>
        </table>
      </div>
      <nav className="hr-dialog__actions" aria-label={t('audit.pages')}>
        <Button type="button" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t('audit.previous')}
        </Button>
        <Button type="button" variant="secondary" disabled={!data?.hasMore} onClick={() => setPage(page + 1)}>
          {t('audit.next')}
        </Button>
      </nav>
      <AuditRetentionSection />
    </>
  );
}

/** `/admin/audit` (issue 52): the audit trail searched by actor, subject, kind, partner, customer and days. */
export function AuditPage() {
  return (
    <ConsoleLayout titleKey="routes.audit" permission="console.audit.read" path={ADMIN_AUDIT_PATH}>
      <Audit />
    </ConsoleLayout>
  );
}
