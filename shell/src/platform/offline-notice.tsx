import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** True while the browser reports a network connection. */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * The offline message: the shell opens from the worker's cache, but signing in and every other account call
 * needs the network, so the page says so instead of letting a form fail mysteriously.
 */
export function OfflineNotice() {
  const { t } = useTranslation('common');
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div className="platform-offline-notice" role="status" data-testid="offline-notice">
      <strong>{t('platform.offline.title')}</strong> {t('platform.offline.message')}
    </div>
  );
}
