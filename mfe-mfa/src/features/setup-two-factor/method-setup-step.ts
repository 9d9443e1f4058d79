import type { ReactNode } from 'react';

/**
 * Props of the wizard's step 2, one component per method: the way back to the choice, and the confirmation with the
 * id of the recovery codes the first valid code created.
 */
export interface MethodSetupStepProps {
  onBack: () => void;
  /** `recoveryCodesId` is null when the account keeps the codes it has (a method added beside others, ADR 0050). */
  onConfirmed: (recoveryCodesId: string | null) => void;
  /** Buttons beside Back (the wizard's Cancel). */
  actions?: ReactNode;
}
