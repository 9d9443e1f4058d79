import { useEffect, useRef } from 'react';
import { useRedeemRecoveryCodeMutation } from './recovery-codes.api';

/**
 * Fetches the set under `id` once. Showing it uses the id up on the server, so a second request (React's strict
 * double effect, a re-render) must never be sent: it would answer "already shown" over the codes.
 */
export function useRecoveryCodeSet(id: string | undefined) {
  const [redeem, result] = useRedeemRecoveryCodeMutation();
  const asked = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!id || asked.current === id) return;
    asked.current = id;
    void redeem({ id });
  }, [id, redeem]);
  return result;
}
