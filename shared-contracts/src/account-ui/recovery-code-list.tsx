import { useState } from 'react';
import { Alert, Button, Stack } from '../ui/index.js';

/** The texts of {@link RecoveryCodeList}, already translated by the page that shows it (its own namespace). */
export interface RecoveryCodeListStrings {
  /** Each code works once; store them safely; shown only now. Shown as a warning above the codes. */
  note: string;
  /** The list's accessible name ("Your recovery codes"). */
  listLabel: string;
  copy: string;
  /** Announced (role="status") once the codes are on the clipboard. */
  copied: string;
  download: string;
  print: string;
  /** The first line of the downloaded and printed sheet, naming the account ("Recovery codes ann@example.com"). */
  fileTitle: string;
}

/** Props of {@link RecoveryCodeList}. */
export interface RecoveryCodeListProps {
  codes: readonly string[];
  strings: RecoveryCodeListStrings;
  /** The downloaded file's name. */
  fileName?: string;
}

/** The `<html>` attribute that, while set, makes account-ui.css print only the codes sheet. */
export const PRINT_RECOVERY_CODES_ATTRIBUTE = 'data-hr-print-recovery-codes';

/**
 * A freshly generated set of recovery codes, shown once (S19), with the note that each works once and must be
 * stored safely, and Copy, Download (a text file) and Print. Used by the two-step set-up wizard (mfe-mfa) and the
 * security centre (shell), so both offer the same three ways to keep them (issue 49). Its texts come in as props:
 * this module lives in `shared-contracts/account-ui`, never on the sign-in route, and carries no strings itself.
 */
export function RecoveryCodeList({ codes, strings, fileName = 'recovery-codes.txt' }: RecoveryCodeListProps) {
  const [copied, setCopied] = useState(false);
  const text = [strings.fileTitle, '', ...codes, ''].join('\n');

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
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  };

  const print = () => {
    // The browser prints the whole page; while the attribute is set account-ui.css hides everything but the sheet
    // (no toast, no header, no other card). `afterprint` comes when the print dialog closes, printed or cancelled;
    // some browsers print after print() has returned, so the attribute is not cleared on return.
    const root = document.documentElement;
    root.setAttribute(PRINT_RECOVERY_CODES_ATTRIBUTE, '');
    window.addEventListener('afterprint', () => root.removeAttribute(PRINT_RECOVERY_CODES_ATTRIBUTE), {
      once: true,
    });
    window.print();
  };

  return (
    <Stack>
      <Alert kind="warning">{strings.note}</Alert>
      <div className="hr-recovery-codes__sheet">
        <p className="hr-recovery-codes__print-title">{strings.fileTitle}</p>
        <ol
          aria-label={strings.listLabel}
          data-testid="recovery-code-list"
          className="hr-recovery-codes__list"
          dir="ltr"
        >
          {codes.map((code) => (
            <li key={code} translate="no">
              {code}
            </li>
          ))}
        </ol>
      </div>
      <div className="hr-recovery-codes__actions">
        <Button variant="secondary" onClick={() => void copy()}>
          {strings.copy}
        </Button>
        <Button variant="secondary" onClick={download}>
          {strings.download}
        </Button>
        <Button variant="secondary" onClick={print}>
          {strings.print}
        </Button>
      </div>
      {/* Always in the page, so the announcement of "copied" is heard (a live region added with its text is not). */}
      <p role="status" className="hr-result-status" data-testid="recovery-codes-copied">
        {copied ? strings.copied : ''}
      </p>
    </Stack>
  );
}
