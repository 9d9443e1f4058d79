import { useTranslation } from 'react-i18next';
import type { Setup2faView, TwoFactorMethod } from 'shared-contracts';
import { Button, Stack } from 'shared-contracts/ui';

/** Step 1: the method to set up, among those the account may use (a replacing method says so). */
export function ChooseMethod({
  view,
  method,
  onChange,
  onNext,
}: {
  view: Setup2faView;
  method: TwoFactorMethod;
  onChange: (method: TwoFactorMethod) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('mfe-mfa');
  return (
    <Stack>
      <p>{view.configured.length > 0 ? t('setup.choose.replaces') : t('setup.choose.intro')}</p>
      <fieldset className="hr-field" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="hr-field__label">{t('setup.choose.legend')}</legend>
        {view.methods.map((m) => (
          <label key={m} className="hr-checkbox">
            <input type="radio" name="method" value={m} checked={method === m} onChange={() => onChange(m)} />
            {t(`methods.${m}`)}
          </label>
        ))}
      </fieldset>
      <Button onClick={onNext}>{t('setup.next')}</Button>
    </Stack>
  );
}
