import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import { ADMIN_PARTNERS_PATH, type ApiError } from 'shared-contracts';
import { Dialog, ResultStatus, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { PartnerSettings, UpdatePartnerRequest } from 'shared-contracts/console';
import { Button, Checkbox, FormErrors, ProgressBar, Stack, TextField } from 'shared-contracts/ui';
import { ConsoleLayout } from '../shared/console-layout';
import { useConsolePartnersQuery } from '../shared/partners-list.api';
import {
  PartnerLanguagesCaptcha,
  languagesCaptchaChangesOf,
  languagesCaptchaDraftOf,
  type LanguagesCaptchaDraft,
} from './partner-languages-captcha';
import { PartnerPreview } from './partner-preview';
import {
  useConsolePartnerQuery,
  useUpdatePartnerMutation,
  useUploadPartnerLogoMutation,
} from './partners.api';
import { ReasonField } from '../shared/reason-field';
import { DialogActions } from '../shared/dialog-actions';

const FLAGS = [
  'showLoginProviders',
  'showLanguageOptions',
  'showBackgroundImages',
  'requireTwoFactor',
  'rememberTwoFactorBrowser',
] as const;
type Flag = (typeof FLAGS)[number];

/** The form's values: text as typed, flags as ticked. */
interface Draft {
  name: string;
  backgroundColor: string;
  privacyPolicyUrl: string;
  idleSignOutMinutes: string;
  passwordMinLength: string;
  flags: Record<Flag, boolean>;
  more: LanguagesCaptchaDraft;
}

function draftOf(p: PartnerSettings): Draft {
  return {
    name: p.name,
    backgroundColor: p.backgroundColor ?? '',
    privacyPolicyUrl: p.privacyPolicyUrl ?? '',
    idleSignOutMinutes: String(p.idleSignOutMinutes),
    passwordMinLength: String(p.passwordRules.minLength),
    flags: Object.fromEntries(FLAGS.map((flag) => [flag, p[flag]])) as Record<Flag, boolean>,
    more: languagesCaptchaDraftOf(p),
  };
}

/** The fields that differ from the stored partner, as UpdatePartner takes them. */
function changesOf(p: PartnerSettings, d: Draft): Omit<UpdatePartnerRequest, 'id' | 'reason'> {
  const changes: Omit<UpdatePartnerRequest, 'id' | 'reason'> = {};
  if (d.name !== p.name) changes.name = d.name;
  if (d.backgroundColor !== (p.backgroundColor ?? ''))
    changes.backgroundColor = d.backgroundColor.trim() ? d.backgroundColor.trim() : null;
  if (d.privacyPolicyUrl !== (p.privacyPolicyUrl ?? ''))
    changes.privacyPolicyUrl = d.privacyPolicyUrl.trim() ? d.privacyPolicyUrl.trim() : null;
  if (d.idleSignOutMinutes !== String(p.idleSignOutMinutes))
    changes.idleSignOutMinutes = Number(d.idleSignOutMinutes);
  if (d.passwordMinLength !== String(p.passwordRules.minLength))
    changes.passwordRules = { minLength: Number(d.passwordMinLength) };
  for (const flag of FLAGS) if (d.flags[flag] !== p[flag]) changes[flag] = d.flags[flag];
  return { ...changes, ...languagesCaptchaChangesOf(p, d.more) };
}

type Failure = ApiError | SerializedError | undefined;

/** Saves the changes and the chosen logo after the operator confirms, with an optional reason. */
function SaveDialog({
  partner,
  changes,
  logo,
  onDone,
  onFailed,
  onClose,
}: {
  partner: PartnerSettings;
  changes: Omit<UpdatePartnerRequest, 'id' | 'reason'>;
  logo: File | null;
  onDone: (message: string) => void;
  onFailed: (error: Failure) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('mfe-admin');
  return (
    <Dialog
      open
      title={t('partners.save.title', { partner: partner.name })}
      onClose={onClose}
      testId="partner-dialog"
    >
      <SaveForm
        partner={partner}
        changes={changes}
        logo={logo}
        onDone={onDone}
        onFailed={onFailed}
        onClose={onClose}
      />
    </Dialog>
  );
}

function SaveForm({ partner, changes, logo, onDone, onFailed, onClose }: Parameters<typeof SaveDialog>[0]) {
  const { t } = useTranslation('mfe-admin');
  const descriptionId = useDialogDescriptionId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [update] = useUpdatePartnerMutation();
  const [upload] = useUploadPartnerLogoMutation();
  const fields = Object.keys(changes);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const why = reason.trim() ? { reason: reason.trim() } : {};
    setBusy(true);
    if (fields.length > 0) {
      const result = await update({ id: partner.id, ...changes, ...why });
      if (result.error) {
        setBusy(false);
        onFailed(result.error);
        return;
      }
    }
    if (logo) {
      const result = await upload({ id: partner.id, file: logo, ...why });
      if (result.error) {
        setBusy(false);
        onFailed(result.error);
        return;
      }
    }
    setBusy(false);
    onDone(t('partners.save.done', { partner: partner.name }));
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId} data-testid="partner-dialog-summary">
          {t('partners.save.summary', {
            partner: partner.name,
            fields: [
              ...fields.map((f) => t(`partners.fields.${f}`)),
              ...(logo ? [t('partners.fields.logo')] : []),
            ].join(', '),
          })}
        </p>
        <ReasonField label={t('actions.reason')} value={reason} onChange={setReason} />
        <DialogActions
          cancel={t('actions.cancel')}
          confirm={t('partners.save.confirm')}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}

/** The edit form of one partner, with the preview of its unsaved branding. */
function PartnerForm({
  partner,
  onResult,
}: {
  partner: PartnerSettings;
  /** Says what was done (or clears it): shown next to the form, kept when the saved partner reloads it. */
  onResult: (message: string | undefined) => void;
}) {
  const { t } = useTranslation('mfe-admin');
  const [draft, setDraft] = useState<Draft>(() => draftOf(partner));
  const [logo, setLogo] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<Failure>(undefined);
  const logoId = useId();
  const changes = useMemo(() => changesOf(partner, draft), [partner, draft]);
  const dirty = Object.keys(changes).length > 0 || logo !== null;

  // The chosen file in the preview before it is uploaded, as a data: URL (the console's CSP allows no blob: image).
  const [logoUrl, setLogoUrl] = useState<string | null>(null);
  function chooseLogo(file: File | null) {
    setLogo(file);
    setLogoUrl(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setLogoUrl(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  }

  const errors = formErrorsOf(t, error);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  function save(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    onResult(undefined);
    setConfirming(true);
  }

  return (
    <div className="admin-partner">
      <form noValidate onSubmit={save} aria-labelledby="partner-form-title" data-testid="partner-form">
        <Stack>
          <h2 id="partner-form-title">{t('partners.edit', { partner: partner.name })}</h2>
          <TextField
            label={t('partners.fields.name')}
            value={draft.name}
            maxLength={100}
            onChange={(event) => set({ name: event.target.value })}
            errors={errors.field('name')}
          />
          <TextField
            label={t('partners.fields.backgroundColor')}
            hint={t('partners.hints.backgroundColor')}
            value={draft.backgroundColor}
            maxLength={64}
            dir="ltr"
            onChange={(event) => set({ backgroundColor: event.target.value })}
            errors={errors.field('backgroundColor')}
            data-testid="partner-colour"
          />
          <div className="hr-field">
            <label className="hr-field__label" htmlFor={logoId}>
              {t('partners.fields.logo')}
            </label>
            <p className="hr-field__hint" id={`${logoId}-hint`}>
              {t('partners.hints.logo')}
            </p>
            <input
              id={logoId}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/svg+xml"
              className="hr-field__input"
              aria-describedby={[
                `${logoId}-hint`,
                errors.field('logo').length > 0 ? `${logoId}-errors` : undefined,
              ]
                .filter(Boolean)
                .join(' ')}
              aria-invalid={errors.field('logo').length > 0 || undefined}
              data-testid="partner-logo"
              onChange={(event) => chooseLogo(event.target.files?.[0] ?? null)}
            />
            {errors.field('logo').length > 0 ? (
              <ul id={`${logoId}-errors`} className="hr-field__errors" data-testid="partner-logo-errors">
                {errors.field('logo').map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <TextField
            label={t('partners.fields.privacyPolicyUrl')}
            type="url"
            dir="ltr"
            value={draft.privacyPolicyUrl}
            onChange={(event) => set({ privacyPolicyUrl: event.target.value })}
            errors={errors.field('privacyPolicyUrl')}
          />
          <TextField
            label={t('partners.fields.idleSignOutMinutes')}
            hint={t('partners.hints.idleSignOutMinutes')}
            type="number"
            inputMode="numeric"
            min={0}
            max={1440}
            value={draft.idleSignOutMinutes}
            onChange={(event) => set({ idleSignOutMinutes: event.target.value })}
            errors={errors.field('idleSignOutMinutes')}
          />
          <TextField
            label={t('partners.fields.passwordRules')}
            type="number"
            inputMode="numeric"
            min={8}
            max={256}
            value={draft.passwordMinLength}
            onChange={(event) => set({ passwordMinLength: event.target.value })}
            errors={errors.field('passwordRules')}
          />
          <PartnerLanguagesCaptcha
            partner={partner}
            draft={draft.more}
            set={(patch) => set({ more: { ...draft.more, ...patch } })}
            errorsOf={errors.field}
          />
          <fieldset className="admin-flags">
            <legend>{t('partners.options')}</legend>
            {FLAGS.map((flag) => (
              <Checkbox
                key={flag}
                label={t(`partners.fields.${flag}`)}
                checked={draft.flags[flag]}
                onChange={(event) => set({ flags: { ...draft.flags, [flag]: event.target.checked } })}
              />
            ))}
          </fieldset>
          <FormErrors messages={errors.form} />
          <div className="admin-release__actions">
            <Button type="submit" disabled={!dirty} data-testid="partner-save">
              {t('partners.save.open')}
            </Button>
            <Button
              type="button"
              variant="secondary"
              disabled={!dirty}
              onClick={() => {
                setDraft(draftOf(partner));
                chooseLogo(null);
                setError(undefined);
              }}
            >
              {t('partners.discard')}
            </Button>
          </div>
        </Stack>
      </form>
      <PartnerPreview
        branding={{
          name: draft.name,
          backgroundColor: draft.backgroundColor,
          logoUrl: logoUrl ?? partner.logoUrl,
          languages: (changes.availableLanguages ?? partner.availableLanguages).map((l) => l.description),
          showLanguageOptions: draft.flags.showLanguageOptions,
          showLoginProviders: draft.flags.showLoginProviders,
        }}
      />
      {confirming ? (
        <SaveDialog
          partner={partner}
          changes={changes}
          logo={logo}
          onDone={(message) => {
            setConfirming(false);
            chooseLogo(null);
            onResult(message);
          }}
          onFailed={(failure) => {
            setConfirming(false);
            setError(failure);
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </div>
  );
}

/**
 * The chosen partner, loaded. The form keeps what is typed while a save is under way; once saved, the partner as
 * stored is what the typed values are compared with, so nothing is left to save.
 */
function SelectedPartner({ id }: { id: string }) {
  const { t } = useTranslation('mfe-admin');
  const { data, error, isLoading } = useConsolePartnerQuery(id);
  const [result, setResult] = useState<string | undefined>(undefined);
  return (
    <>
      <ProgressBar active={isLoading} label={t('partners.loading')} />
      <FormErrors messages={formErrorsOf(t, error).form} />
      {data ? <PartnerForm key={data.id} partner={data} onResult={setResult} /> : null}
      <ResultStatus message={result} testId="partner-result" />
    </>
  );
}

function Partners() {
  const { t } = useTranslation('mfe-admin');
  const { data, error, isLoading } = useConsolePartnersQuery();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const partners = data?.partners ?? [];
  const id = selected ?? partners.find((p) => p.isDefault)?.id ?? partners[0]?.id;
  const selectId = useId();
  return (
    <>
      <p>{t('partners.intro')}</p>
      <ProgressBar active={isLoading} label={t('partners.loading')} />
      <FormErrors messages={formErrorsOf(t, error).form} />
      {partners.length > 0 ? (
        <div className="hr-field">
          <label className="hr-field__label" htmlFor={selectId}>
            {t('partners.choose')}
          </label>
          <select
            id={selectId}
            className="hr-field__input"
            value={id}
            data-testid="partner-select"
            onChange={(event) => setSelected(event.target.value)}
          >
            {partners.map((p) => (
              <option key={p.id} value={p.id}>
                {p.isDefault ? t('partners.defaultPartner', { partner: p.name }) : p.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {id ? <SelectedPartner key={id} id={id} /> : null}
    </>
  );
}

/** `/admin/partners` (issue 52): each partner's branding and sign-in options, with a live preview, for platform administrators. */
export function PartnersPage() {
  return (
    <ConsoleLayout titleKey="routes.partners" permission="console.partners.read" path={ADMIN_PARTNERS_PATH}>
      <Partners />
    </ConsoleLayout>
  );
}
