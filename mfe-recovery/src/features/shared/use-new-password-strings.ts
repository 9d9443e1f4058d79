import { useTranslation } from 'react-i18next';
import type { NewPasswordStrings } from 'shared-contracts/account-ui';
import { translateErrorMessage } from 'shared-contracts/api';

/**
 * The words of the shared new-password fields (shared-contracts/account-ui carries none), from this remote's
 * namespace: they load with its pages, never with the sign-in route.
 */
export function useNewPasswordStrings(): NewPasswordStrings {
  const { t } = useTranslation('mfe-recovery');
  return {
    newLabel: t('password.newLabel'),
    confirmLabel: t('password.confirmLabel'),
    show: t('password.show'),
    hide: t('password.hide'),
    showLabel: t('password.showLabel'),
    hideLabel: t('password.hideLabel'),
    rulesHeading: t('rules.heading'),
    met: t('rules.met'),
    notMet: t('rules.notMet'),
    allMet: t('rules.allMet'),
    someMet: (met, total) => t('rules.someMet', { met, total }),
    rule: (message) => translateErrorMessage(t, message),
    strength: (score) => t('strength.label', { level: t(`strength.levels.${score}`) }),
  };
}
