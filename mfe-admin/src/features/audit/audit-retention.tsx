import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiError } from 'shared-contracts';
import { ResultStatus, useConsoleAccessQuery } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { AUDIT_RETENTION_LIMITS } from 'shared-contracts/console';
import { Button, FormErrors, TextField } from 'shared-contracts/ui';
import { useAuditRetentionQuery, useSetAuditRetentionMutation } from './audit.api';
import { ReasonField } from '../shared/reason-field';

/**
 * How long the audit keeps events (issue 52): shown to every reader of the audit; a platform administrator
 * (`console.audit.settings`) changes it with a reason, the result said beside it.
 */
export function AuditRetentionSection() {
  const { t } = useTranslation('mfe-admin');
  const titleId = useId();
  const { data } = useAuditRetentionQuery();
  const { data: access } = useConsoleAccessQuery();
  const canChange = access?.permissions.includes('console.audit.settings') ?? false;
  const [days, setDays] = useState('');
  const [reason, setReason] = useState('');
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [result, setResult] = useState('');
  const [save, { isLoading }] = useSetAuditRetentionMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const n = Number(days);
    const found: Record<string, string> = {};
    if (!Number.isInteger(n) || n < AUDIT_RETENTION_LIMITS.min || n > AUDIT_RETENTION_LIMITS.max)
      found.days = t('audit.retention.checkDays', AUDIT_RETENTION_LIMITS);
    if (!reason.trim()) found.reason = t('grants.checks.reason');
    setChecks(found);
    setError(undefined);
    setResult('');
    if (Object.keys(found).length > 0) return;
    const answer = await save({ days: n, reason: reason.trim() });
    if (answer.error) setError(answer.error);
    else {
      setResult(t('audit.retention.saved', { count: n }));
      setDays('');
      setReason('');
    }
  }

  const errors = formErrorsOf(t, error);
  const fieldErrors = (name: string) => [...(checks[name] ? [checks[name]] : []), ...errors.field(name)];
  const reasonErrors = fieldErrors('reason');
  return (
    <section className="hr-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('audit.retention.title')}</h2>
      <p data-testid="audit-retention">
        {data ? t('audit.retention.current', { count: data.days }) : t('audit.loading')}
      </p>
      {canChange ? (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <TextField
            label={t('audit.retention.days')}
            type="number"
            inputMode="numeric"
            min={AUDIT_RETENTION_LIMITS.min}
            max={AUDIT_RETENTION_LIMITS.max}
            step={1}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            errors={fieldErrors('days')}
          />
          <ReasonField
            label={t('grants.reason')}
            value={reason}
            onChange={setReason}
            errors={reasonErrors}
            required
          />
          <FormErrors messages={errors.form} />
          <Button type="submit" loading={isLoading}>
            {t('audit.retention.save')}
          </Button>
        </form>
      ) : null}
      <ResultStatus message={result} testId="audit-retention-result" />
    </section>
  );
}
