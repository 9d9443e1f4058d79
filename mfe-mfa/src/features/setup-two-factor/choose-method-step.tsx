import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Setup2faView, TwoFactorMethod } from 'shared-contracts';
import { ConfirmDialog } from 'shared-contracts/account-ui';
import 'shared-contracts/account-ui/account-ui.css';
import { Button, Stack } from 'shared-contracts/ui';

/** The methods the wizard can add: those the account may use and has not set up yet. */
export function addableMethods(view: Setup2faView): TwoFactorMethod[] {
  return view.methods.filter((m) => !view.configured.includes(m));
}

/**
 * Step 1: the method to add (ADR 0050). Only methods not set up yet are offered, none of them taken for granted
 * beyond the first; the ones the account has are listed. Replacing the authenticator app is its own action, asked
 * for by name and confirmed, never the side effect of a preselected choice.
 */
export function ChooseMethod({
  view,
  method,
  onChange,
  onNext,
  onReplaceAuthenticator,
  actions,
}: {
  view: Setup2faView;
  method: TwoFactorMethod | undefined;
  onChange: (method: TwoFactorMethod) => void;
  onNext: () => void;
  /** Goes on to set up a new authenticator app in place of the one set up. */
  onReplaceAuthenticator: () => void;
  /** Buttons beside Next (the wizard's Cancel). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation('mfe-mfa');
  const [confirming, setConfirming] = useState(false);
  const addable = addableMethods(view);
  const adding = view.configured.length > 0;
  return (
    <Stack>
      <p>{adding ? t('setup.choose.adds') : t('setup.choose.intro')}</p>
      {adding ? (
        <div>
          <h3 id="setup-existing" className="hr-field__label" style={{ margin: 0, fontSize: '1rem' }}>
            {t('setup.choose.existing')}
          </h3>
          <ul
            aria-labelledby="setup-existing"
            data-testid="configured-methods"
            style={{ marginBlock: '0.25rem 0' }}
          >
            {view.configured.map((m) => (
              <li key={m}>{t(`methods.${m}`)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {addable.length > 0 ? (
        <fieldset className="hr-field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="hr-field__label">{t('setup.choose.legend')}</legend>
          {addable.map((m) => (
            <label key={m} className="hr-checkbox">
              <input
                type="radio"
                name="method"
                value={m}
                checked={method === m}
                onChange={() => onChange(m)}
              />
              {t(`methods.${m}`)}
            </label>
          ))}
        </fieldset>
      ) : (
        <p>{t('setup.choose.allSetUp')}</p>
      )}
      <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        {addable.length > 0 ? (
          <Button onClick={onNext} disabled={method === undefined}>
            {t('setup.next')}
          </Button>
        ) : null}
        {actions}
      </div>
      {view.configured.includes('authenticator') ? (
        <>
          <p className="hr-fine-print">
            <Button variant="link" className="hr-button--danger-outline" onClick={() => setConfirming(true)}>
              {t('setup.choose.replaceAuthenticator')}
            </Button>
          </p>
          <ConfirmDialog
            open={confirming}
            title={t('setup.replace.title')}
            message={<p style={{ margin: 0 }}>{t('setup.replace.message')}</p>}
            confirmLabel={t('setup.choose.replaceAuthenticator')}
            cancelLabel={t('setup.cancel')}
            danger
            onConfirm={() => {
              setConfirming(false);
              onReplaceAuthenticator();
            }}
            onCancel={() => setConfirming(false)}
            testId="replace-authenticator-dialog"
          />
        </>
      ) : null}
    </Stack>
  );
}
