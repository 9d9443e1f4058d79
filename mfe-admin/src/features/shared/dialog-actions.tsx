import { Button } from 'shared-contracts/ui';

/** Props of {@link DialogActions}. */
export interface DialogActionsProps {
  cancel: string;
  confirm: string;
  onCancel: () => void;
  /** A change that takes something away (disable, remove, roll back): the confirm button says so by its colour. */
  danger?: boolean;
  busy?: boolean;
}

/** The foot of a console confirmation: cancel, then the submit button that makes the change. */
export function DialogActions({ cancel, confirm, onCancel, danger, busy }: DialogActionsProps) {
  return (
    <div className="hr-dialog__actions">
      <Button type="button" variant="secondary" onClick={onCancel}>
        {cancel}
      </Button>
      <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy}>
        {confirm}
      </Button>
    </div>
  );
}
