import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'shared-contracts/ui';
import { useIdleSignOut } from '../platform/idle-sign-out';
import { useModalDialog } from '../platform/modal-dialog';

function secondsLeft(signOutAt: number): number {
  return Math.max(0, Math.ceil((signOutAt - Date.now()) / 1000));
}

/**
 * The warning before the idle sign-out (ADR 0020): a modal dialog (focus moves to "Stay signed in"; a click, Escape or
 * another key here, or input in another tab, counts as presence and closes it) saying when the sign-out happens. The
 * count is shown, not announced every second: the dialog's description is read once when it opens.
 */
export function IdleWarning({ signOutAt }: { signOutAt: number }) {
  const { t } = useTranslation('common');
  const dialog = useModalDialog();
  const titleId = useId();
  const textId = useId();
  const [seconds, setSeconds] = useState(() => secondsLeft(signOutAt));

  useEffect(() => {
    const timer = setInterval(() => setSeconds(secondsLeft(signOutAt)), 1000);
    return () => clearInterval(timer);
  }, [signOutAt]);

  return (
    <dialog
      ref={dialog}
      className="shell__idle-warning"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <h2 id={titleId}>{t('idle.title')}</h2>
      <p id={textId}>{t('idle.warning', { count: seconds })}</p>
      {/* The click answers the warning (the tracker ends it once the click is done, so it cannot land elsewhere). */}
      <Button autoFocus>{t('idle.stay')}</Button>
    </dialog>
  );
}

/**
 * The partner's idle sign-out for a signed-in person (ADR 0020): the tracker, and its warning when the limit is near.
 * Loaded on demand by the page frame (`AppLayout`), so the sign-in page carries none of it; `since` is when the frame
 * saw the person signed in, where the limit starts to run.
 */
export function IdleSignOut({ minutes, since }: { minutes: number; since: number }) {
  const { signOutAt } = useIdleSignOut(minutes, since);
  return signOutAt !== undefined ? <IdleWarning key={signOutAt} signOutAt={signOutAt} /> : null;
}
