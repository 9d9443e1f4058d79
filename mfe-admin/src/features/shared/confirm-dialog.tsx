import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiError } from 'shared-contracts';
import { Dialog, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { FormErrors, Stack } from 'shared-contracts/ui';
import { DialogActions } from './dialog-actions';
import { ReasonField } from './reason-field';

/** A failed call of a console page (RTK Query's error). */
export type Failure = ApiError | SerializedError | undefined;

/** What a confirmation acts on: its title, what will happen, and the call with the reason given. */
export interface Confirmation {
  title: string;
  summary: string;
  confirm: string;
  danger: boolean;
  run: (reason: string | undefined) => Promise<{ error?: Failure; data?: unknown }>;
  done: (data: unknown) => void;
  /** Fields of a refusal the form behind the dialog shows itself; any other refusal stays in the dialog. */
  formFields?: readonly string[];
}

/**
 * Confirms one console change with an optional reason (recorded in the audit): what will happen, then the call. A
 * refusal of a field the form behind shows is left to that form; any other stays here (SPEC.md §4).
 */
export function ConfirmDialog({
  confirmation,
  onClose,
}: {
  confirmation: Confirmation;
  onClose: () => void;
}) {
  return (
    <Dialog open title={confirmation.title} onClose={onClose} testId="console-confirm">
      <ConfirmForm confirmation={confirmation} onClose={onClose} />
    </Dialog>
  );
}

function ConfirmForm({ confirmation, onClose }: { confirmation: Confirmation; onClose: () => void }) {
  const { t } = useTranslation('mfe-admin');
  const descriptionId = useDialogDescriptionId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failure>(undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await confirmation.run(reason.trim() || undefined);
    setBusy(false);
    if (!result.error) confirmation.done(result.data);
    else if (confirmation.formFields && fieldsOnly(result.error, confirmation.formFields)) onClose();
    else setError(result.error);
  }

  const errors = formErrorsOf(t, error);
  const fieldMessages =
    error && 'errors' in error ? Object.keys(error.errors).flatMap((field) => errors.field(field)) : [];
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId}>{confirmation.summary}</p>
        <ReasonField
          label={t('actions.reason')}
          value={reason}
          onChange={setReason}
          errors={errors.field('reason')}
        />
        <FormErrors
          messages={[...errors.form, ...fieldMessages.filter((m) => !errors.field('reason').includes(m))]}
        />
        <DialogActions
          cancel={t('actions.cancel')}
          confirm={confirmation.confirm}
          danger={confirmation.danger}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}

/** True when a refusal names only fields the form behind the dialog shows on themselves. */
function fieldsOnly(error: Failure, fields: readonly string[]): boolean {
  if (!error || !('errors' in error)) return false;
  const keys = Object.keys(error.errors);
  return keys.length > 0 && keys.every((key) => fields.includes(key));
}
