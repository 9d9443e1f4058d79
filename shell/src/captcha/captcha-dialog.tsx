import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import type { CaptchaAction } from 'shared-contracts';
import {
  cancelCaptcha,
  captchaFailed,
  completeCaptcha,
  selectCaptcha,
  useCaptchaProviderQuery,
  useVerifyCaptchaMutation,
  type RootState,
} from 'shared-contracts/api';
import { Alert, Button, Stack } from 'shared-contracts/ui';
import { useModalDialog } from '../platform/modal-dialog.js';
import { AltchaChallenge } from './altcha-challenge.js';
import { RecaptchaChallenge } from './recaptcha-challenge.js';
import type { SolvedHandler } from './solved-handler.js';
import './captcha.css';

/**
 * The challenge as a modal dialog: focus moves into it, Escape or Cancel closes it without re-sending anything.
 * The widget's token goes to VerifyCaptcha; accepted, the dialog closes and the page's callback re-sends the action;
 * refused, the widget starts again with a fresh challenge.
 */
export function CaptchaDialog() {
  const { t } = useTranslation('common');
  const dispatch = useDispatch();
  const captcha = useSelector((state: RootState) => selectCaptcha(state));
  const [verify, { isLoading }] = useVerifyCaptchaMutation();
  const [failed, setFailed] = useState(false);
  const dialog = useModalDialog();

  const target: CaptchaAction = captcha.target ?? 'login';
  const onSolved = useCallback<SolvedHandler>(
    (version, token) => {
      void verify({ version, token, action: target }).then((result) => {
        if ('data' in result) {
          completeCaptcha(dispatch, captcha.callbackId);
          return;
        }
        setFailed(true);
        dispatch(captchaFailed());
      });
    },
    [verify, target, dispatch, captcha.callbackId],
  );

  // A page without LoginView (Recover) names no provider: the partner's comes from LoginView here.
  const asked = useCaptchaProviderQuery(undefined, { skip: captcha.provider !== undefined });
  const provider = captcha.provider ?? asked.data;
  return (
    <dialog
      ref={dialog}
      className="hr-captcha-dialog"
      aria-labelledby="hr-captcha-title"
      aria-describedby="hr-captcha-intro"
      data-testid="captcha-dialog"
      onCancel={(event) => {
        event.preventDefault();
        cancelCaptcha(dispatch);
      }}
    >
      <Stack>
        <h2 id="hr-captcha-title">{t('captcha.title')}</h2>
        <p id="hr-captcha-intro">{t('captcha.intro')}</p>
        {failed ? <Alert kind="error">{t('errors:captchaInvalid')}</Alert> : null}
        {provider === undefined ? null : provider.version === 1 ? (
          <AltchaChallenge action={target} attempt={captcha.attempt} onSolved={onSolved} busy={isLoading} />
        ) : (
          <RecaptchaChallenge
            version={provider.version}
            siteKey={provider.siteKey ?? ''}
            action={target}
            attempt={captcha.attempt}
            onSolved={onSolved}
          />
        )}
        <Button variant="secondary" onClick={() => cancelCaptcha(dispatch)}>
          {t('captcha.cancel')}
        </Button>
      </Stack>
    </dialog>
  );
}
