import { useSyncExternalStore } from 'react';
import { Button } from 'shared-contracts/ui';
import {
  dismissInlineToast,
  inlineToasts,
  pauseInlineToast,
  resumeInlineToast,
  subscribeInlineToasts,
  type InlineToast,
} from './inline-toast-store.js';

const NONE: readonly InlineToast[] = [];

/** The UI kit's alert colours for the kinds that have one; a plain toast (the update prompt) in the page's own. */
const KIND_CLASS: Record<InlineToast['kind'], string> = {
  info: 'hr-alert--info',
  success: 'hr-alert--success',
  error: 'hr-alert--error',
  plain: 'platform-inline-toast--plain',
};

/**
 * A phone's toasts (ADR 0031): lines after the page frame, the last thing of the page, so one that comes or goes
 * moves nothing above it and lies over nothing. One polite live region, present from the start so screen readers
 * announce what is added; empty, it takes no room. A toast's time holds while a pointer rests on it or focus is in it.
 */
export function InlineToasts() {
  const toasts = useSyncExternalStore(subscribeInlineToasts, inlineToasts, () => NONE);
  return (
    <div className="platform-inline-toasts" role="status">
      {toasts.map((toast) => (
        <div
          key={toast.key}
          className={`hr-alert platform-inline-toast ${KIND_CLASS[toast.kind]}`}
          data-inline-toast={toast.kind}
          onPointerEnter={() => pauseInlineToast(toast.key)}
          onPointerLeave={() => resumeInlineToast(toast.key)}
          onFocus={() => pauseInlineToast(toast.key)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) resumeInlineToast(toast.key);
          }}
        >
          <p className="platform-inline-toast__message">{toast.message}</p>
          {toast.action ? (
            <Button
              variant="secondary"
              onClick={() => {
                dismissInlineToast(toast.key);
                toast.action?.onClick();
              }}
            >
              {toast.action.label}
            </Button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
