import { useState, type ReactNode } from 'react';
import { Button, Stack } from '../ui/index.js';
import { Dialog, useDialogDescriptionId } from './dialog.js';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  open: boolean;
  /** Already translated, naming the object: "Delete the passkey 'Work laptop'?" */
  title: string;
  /** Already translated: what happens, and what cannot be undone. */
  message: ReactNode;
  /** Already translated: the action ("Delete passkey"). */
  confirmLabel: string;
  /** Already translated: "Cancel". */
  cancelLabel: string;
  /** A destructive action: the confirm button is styled as one (red), distinct from neutral actions. */
  danger?: boolean;
  /** Runs the action; the dialog shows it busy until the promise settles, then closes. */
  onConfirm: () => Promise<unknown> | void;
  onCancel: () => void;
  testId?: string;
}

function Body({
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onConfirm,
  onCancel,
}: Omit<ConfirmDialogProps, 'open' | 'title' | 'testId'>) {
  const descriptionId = useDialogDescriptionId();
  const [busy, setBusy] = useState(false);
  return (
    <Stack>
      <div id={descriptionId}>{message}</div>
      <div className="hr-dialog__actions">
        {/* Cancel first in the focus order and focused on open: Enter on a confirmation does not destroy. */}
        <Button variant="secondary" autoFocus onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button
          variant={danger ? 'danger' : 'primary'}
          loading={busy}
          onClick={() => {
            setBusy(true);
            void Promise.resolve(onConfirm()).finally(() => setBusy(false));
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Stack>
  );
}

/**
 * A confirmation before a destructive or irreversible action (issue 49): an `alertdialog` naming the object, Cancel
 * focused first, the action styled as destructive when it is one. The caller closes it (sets `open` false) when the
 * action is done or cancelled.
 */
export function ConfirmDialog({ open, title, testId, ...body }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      role="alertdialog"
      onClose={body.onCancel}
      testId={testId ?? 'confirm-dialog'}
    >
      <Body {...body} />
    </Dialog>
  );
}
