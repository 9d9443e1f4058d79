import { createContext, useContext, useEffect, useId, useRef, type ReactNode } from 'react';

/** Props of {@link Dialog}. */
export interface DialogProps {
  /** Open (shown modal) or closed. */
  open: boolean;
  /** Already translated: the dialog's heading, which names it for screen readers. */
  title: string;
  /** Called when the person closes it without acting: Escape, or a Cancel button the content renders. */
  onClose: () => void;
  /** `alertdialog` for a question that interrupts (a confirmation); `dialog` for a form. */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
  /** A `data-testid` for tests. */
  testId?: string;
}

/**
 * A modal dialog on the browser's own `<dialog>` (`showModal`): the page behind is inert, focus moves into the dialog
 * and back to what had it on close, Escape closes (ARIA APG "Dialog (Modal)"). The heading names it; content that
 * describes it carries the id `aria-describedby` points at (`${id}-description`, see {@link useDialogIds}).
 */
export function Dialog({ open, title, onClose, role = 'dialog', children, testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const returnTo = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement;
      // jsdom has no showModal; the attribute keeps it visible there.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      const back = returnTo.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="hr-dialog"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      aria-modal="true"
      data-testid={testId}
      onCancel={(event) => {
        // Escape: the parent decides (it closes by setting `open` false), so React state and the element agree.
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <div className="hr-dialog__body">
          <h2 id={`${id}-title`} className="hr-dialog__title">
            {title}
          </h2>
          <DialogDescriptionId.Provider value={`${id}-description`}>{children}</DialogDescriptionId.Provider>
        </div>
      ) : null}
    </dialog>
  );
}

const DialogDescriptionId = createContext<string | undefined>(undefined);

/** The id the enclosing {@link Dialog}'s `aria-describedby` names: put it on the text that says what it asks. */
export function useDialogDescriptionId(): string | undefined {
  return useContext(DialogDescriptionId);
}
