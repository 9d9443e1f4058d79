import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ResultStatus } from 'shared-contracts/account-ui';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { useConfirmEmailChangeMutation } from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * The mailed link (`/account/?confirmEmail=…`), opened while signed in as the account that asked: one button
 * confirms (a mail scanner that follows the link changes nothing), then the link leaves the address bar. The card
 * stays with the new address in it (and the focus on its heading, the button being gone), an error stays in it.
 */
export function ConfirmEmailChange() {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const [search, setSearch] = useSearchParams();
  const token = search.get('confirmEmail');
  const [confirmed, setConfirmed] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirm, confirming] = useConfirmEmailChangeMutation();
  const errors = useFormErrors(confirming.error);
  if (!token && !confirmed) return null;
  const go = async () => {
    if (!token) return;
    const result = await confirm({ token });
    if ('error' in result) return;
    setConfirmed(result.data.email);
    setSearch({}, { replace: true });
    heading.current?.focus();
    requestToast({ kind: 'success', message: t('email.changed', { email: result.data.email }) });
  };
  return (
    <Card>
      <section aria-labelledby="confirm-email-heading" data-testid="confirm-email">
        <Stack>
          <h2 id="confirm-email-heading" ref={heading} tabIndex={-1}>
            {t('email.confirmHeading')}
          </h2>
          {confirmed ? null : <p>{t('email.confirmText')}</p>}
          <ResultStatus
            message={confirmed ? t('email.confirmed', { email: confirmed }) : ''}
            testId="confirm-email-result"
          />
          {confirmed ? null : (
            <>
              <FormErrors messages={[...errors.form, ...errors.field('token'), ...errors.field('email')]} />
              <Button loading={confirming.isLoading} onClick={() => void go()}>
                {t('email.confirm')}
              </Button>
            </>
          )}
        </Stack>
      </section>
    </Card>
  );
}
