import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Stack } from 'shared-contracts/ui';

/** Props of {@link RecoveryCodeList}. */
export interface RecoveryCodeListProps {
  codes: readonly string[];
  /** Names the account in the downloaded file, so a user with several accounts knows which codes these are. */
  accountName?: string | undefined;
}

/**
 * A freshly generated set of recovery codes, shown once (S19), with the note that each works once and must be
 * stored safely, and copy and download (text file) buttons.
 */
export function RecoveryCodeList({ codes, accountName }: RecoveryCodeListProps) {
  const { t } = useTranslation('mfe-mfa');
  const [copied, setCopied] = useState(false);
  const text = [t('codes.fileTitle', { account: accountName ?? '' }), '', ...codes, ''].join('\n');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      // Clipboard refused (permissions, insecure origin): the codes stay on screen to copy by hand.
      setCopied(false);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack>
      <Alert kind="warning">{t('codes.note')}</Alert>
      <ol
        aria-label={t('codes.listLabel')}
        data-testid="recovery-codes"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(11rem, 1fr))',
          gap: '0.5rem 1.5rem',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: '1.05rem',
          paddingInlineStart: '2rem',
          margin: 0,
        }}
      >
        {codes.map((code) => (
          <li key={code} translate="no">
            {code}
          </li>
        ))}
      </ol>
      <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        <Button variant="secondary" onClick={() => void copy()}>
          {t('codes.copy')}
        </Button>
        <Button variant="secondary" onClick={download}>
          {t('codes.download')}
        </Button>
      </div>
      {copied ? <Alert kind="success">{t('codes.copied')}</Alert> : null}
    </Stack>
  );
}
