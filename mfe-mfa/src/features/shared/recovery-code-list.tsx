import { useTranslation } from 'react-i18next';
import { RecoveryCodeList as SharedRecoveryCodeList } from 'shared-contracts/account-ui';
import 'shared-contracts/account-ui/account-ui.css';

/** Props of {@link RecoveryCodeList}. */
export interface RecoveryCodeListProps {
  codes: readonly string[];
  /** Names the account in the downloaded file, so a user with several accounts knows which codes these are. */
  accountName?: string | undefined;
}

/**
 * The wizard's and the redeem page's recovery codes: the shared list of `shared-contracts/account-ui` (the security
 * centre shows the same one, issue 49) with this remote's texts, Copy, Download and Print.
 */
export function RecoveryCodeList({ codes, accountName }: RecoveryCodeListProps) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <SharedRecoveryCodeList
      codes={codes}
      strings={{
        note: t('codes.note'),
        listLabel: t('codes.listLabel'),
        copy: t('codes.copy'),
        copied: t('codes.copied'),
        download: t('codes.download'),
        print: t('codes.print'),
        fileTitle: t('codes.fileTitle', { account: accountName ?? '' }),
      }}
    />
  );
}
