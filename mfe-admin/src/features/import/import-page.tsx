import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import { ADMIN_IMPORT_PATH, parseErrorCode, type ApiError } from 'shared-contracts';
import { ResultStatus } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { IMPORT_CSV_MAX, importCustomersSchema } from 'shared-contracts/console';
import { Button, FormErrors } from 'shared-contracts/ui';
import { ConsoleLayout } from '../shared/console-layout';
import { useImportCustomersMutation } from './import.api';
import { ReasonField } from '../shared/reason-field';

/**
 * How many rows the gateway found wrong: its `csv` errors are one code per reason (`importUnknownUser|{"row":4,…}`),
 * several for a row with several faults; a reason of the whole file (no header, no rows) counts as one.
 */
function badRowCountOf(error: ApiError | SerializedError | undefined): number {
  if (!error || !('errors' in error)) return 0;
  const rows = (error.errors.csv ?? []).map((message) => {
    const parsed = parseErrorCode(message);
    return 'values' in parsed && parsed.values.row !== undefined ? String(parsed.values.row) : message;
  });
  return new Set(rows).size;
}

function ImportForm() {
  const { t } = useTranslation('mfe-admin');
  const csvId = useId();
  const fileId = useId();
  const badId = useId();
  const [csv, setCsv] = useState('');
  const [reason, setReason] = useState('');
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [result, setResult] = useState('');
  const [importCustomers, { isLoading }] = useImportCustomersMutation();

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setCsv(await file.text());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!csv.trim()) found.csv = t('import.checks.csv');
    else if (csv.length > IMPORT_CSV_MAX) found.csv = t('import.checks.tooLarge', { max: IMPORT_CSV_MAX });
    if (!reason.trim()) found.reason = t('grants.checks.reason');
    setChecks(found);
    setError(undefined);
    setResult('');
    if (Object.keys(found).length > 0) return;
    const answer = await importCustomers({ csv, reason: reason.trim() });
    if (answer.error) {
      setError(answer.error);
      return;
    }
    const done = importCustomersSchema.parse(answer.data);
    setResult(
      t('import.done', {
        customers: t('import.customers', { count: done.customers }),
        memberships: t('import.memberships', { count: done.memberships }),
      }),
    );
    setCsv('');
    setReason('');
  }

  const errors = formErrorsOf(t, error);
  // Each reason in the reader's language, with its row number (SPEC.md §4 codes of the errors map).
  const badRows = errors.field('csv');
  const badRowCount = badRowCountOf(error);
  const csvErrors = checks.csv ? [checks.csv] : [];
  const reasonErrors = checks.reason ? [checks.reason] : [];
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <p>{t('import.intro')}</p>
      <pre className="admin-muted" dir="ltr">
        id,name,partner,username,roles
      </pre>
      <div className="hr-field">
        <label className="hr-field__label" htmlFor={fileId}>
          {t('import.file')}
        </label>
        <input id={fileId} type="file" accept=".csv,text/csv" onChange={(event) => void chooseFile(event)} />
      </div>
      <div className="hr-field">
        <label className="hr-field__label" htmlFor={csvId}>
          {t('import.csv')}
        </label>
        <textarea
          id={csvId}
          className="hr-field__input admin-import__csv"
          dir="ltr"
          rows={10}
          spellCheck={false}
          value={csv}
          aria-invalid={csvErrors.length > 0 || badRows.length > 0 || undefined}
          aria-describedby={
            [csvErrors.length > 0 ? `${csvId}-errors` : '', badRows.length > 0 ? badId : '']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => setCsv(event.target.value)}
        />
        {csvErrors.length > 0 ? (
          <ul id={`${csvId}-errors`} className="hr-field__errors">
            {csvErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <ReasonField
        label={t('grants.reason')}
        value={reason}
        onChange={setReason}
        errors={reasonErrors}
        required
      />
      {badRows.length > 0 ? (
        <div id={badId} role="alert" className="hr-field__errors" data-testid="import-bad-rows">
          <p>{t('import.badRows', { count: badRowCount })}</p>
          <ul>
            {badRows.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
        </div>
      ) : (
        <FormErrors messages={errors.form} />
      )}
      <Button type="submit" loading={isLoading}>
        {t('import.submit')}
      </Button>
      <ResultStatus message={result} testId="import-result" />
    </form>
  );
}

/** `/admin/import` (issue 52): customers and memberships from CSV, all or nothing, for platform administrators. */
export function ImportPage() {
  return (
    <ConsoleLayout titleKey="routes.import" permission="console.import" path={ADMIN_IMPORT_PATH}>
      <ImportForm />
    </ConsoleLayout>
  );
}
