import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { cancelCaptcha } from 'shared-contracts/api';
import { Button, Stack } from 'shared-contracts/ui';
import { useModalDialog } from '../platform/modal-dialog.js';
import type { FailedPart } from '../platform/on-demand.js';
import { PartUnavailable } from '../platform/part-unavailable.js';

/**
 * The challenge's code did not arrive: the same dialog, saying so, with Try again (asks for the code again) and
 * Cancel (nothing is re-sent, as when the challenge is closed).
 */
export const CaptchaUnavailable: FailedPart = ({ retry }) => {
  const { t } = useTranslation('common');
  const dispatch = useDispatch();
  const dialog = useModalDialog();
  return (
    <dialog
      ref={dialog}
      aria-labelledby="hr-captcha-title"
      data-testid="captcha-unavailable"
      onCancel={(event) => {
        event.preventDefault();
        cancelCaptcha(dispatch);
      }}
    >
      <Stack>
        <h2 id="hr-captcha-title">{t('captcha.title')}</h2>
        <PartUnavailable retry={retry} />
        <Button variant="secondary" onClick={() => cancelCaptcha(dispatch)}>
          {t('captcha.cancel')}
        </Button>
      </Stack>
    </dialog>
  );
};
