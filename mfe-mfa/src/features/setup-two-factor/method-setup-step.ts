/**
 * Props of the wizard's step 2, one component per method: the way back to the choice, and the confirmation with the
 * id of the recovery codes the first valid code created.
 */
export interface MethodSetupStepProps {
  onBack: () => void;
  onConfirmed: (recoveryCodesId: string) => void;
}
