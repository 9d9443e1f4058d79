import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf } from 'shared-contracts/api';
import {
  UPSTREAM_TOKEN_AUTH_METHODS,
  UPSTREAM_VENDOR_ROLES,
  createUpstreamRequestSchema,
  updateUpstreamRequestSchema,
  type CreateUpstreamRequest,
  type UpdateUpstreamRequest,
  type Upstream,
  type UpstreamTokenAuthMethod,
} from 'shared-contracts/console';
import { Button, Checkbox, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import type { Confirmation, Failure } from '../shared/confirm-dialog';
import { useConsolePartnersQuery } from '../shared/partners-list.api';
import { refusalOf } from '../shared/schema-check';
import { useCreateUpstreamMutation, useUpdateUpstreamMutation } from './applications.api';
import { SelectField } from '../shared/select-field';

type VendorRole = (typeof UPSTREAM_VENDOR_ROLES)[number];

/** The fields of a provider a refusal may name; the form shows them on themselves. */
const FIELDS = [
  'id',
  'name',
  'issuer',
  'clientId',
  'clientSecret',
  'scopes',
  'partnerId',
  'roles',
  'buttonLabel',
  'tokenAuthMethod',
] as const;

/** The form's values, as typed. */
interface Draft {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  partnerId: string;
  vendor: boolean;
  roles: VendorRole[];
  buttonLabel: string;
  trustUpstreamMfa: boolean;
  /** '' is "chosen from the provider's discovery". */
  tokenAuthMethod: UpstreamTokenAuthMethod | '';
}

function draftOf(u: Upstream | undefined): Draft {
  return {
    id: u?.id ?? '',
    name: u?.name ?? '',
    issuer: u?.issuer ?? '',
    clientId: u?.clientId ?? '',
    clientSecret: '',
    scopes: u?.scopes ?? 'openid profile email',
    partnerId: u?.partnerId ?? '',
    vendor: u?.vendor ?? false,
    roles: (u?.roles ?? []).filter((r): r is VendorRole =>
      (UPSTREAM_VENDOR_ROLES as readonly string[]).includes(r),
    ),
    buttonLabel: u?.buttonLabel ?? '',
    trustUpstreamMfa: u?.trustUpstreamMfa ?? false,
    tokenAuthMethod: u?.tokenAuthMethod ?? '',
  };
}

/** The settings both calls take, from the draft. */
function settingsOf(d: Draft) {
  return {
    name: d.name,
    issuer: d.issuer.trim(),
    clientId: d.clientId.trim(),
    scopes: d.scopes.trim(),
    partnerId: d.partnerId || null,
    roles: d.vendor ? d.roles : [],
    buttonLabel: d.buttonLabel.trim() || null,
    trustUpstreamMfa: d.trustUpstreamMfa,
    tokenAuthMethod: d.tokenAuthMethod || null,
  };
}

/** UpdateUpstream's request: only what differs from the stored provider, so discovery runs only when it must. */
function changesOf(stored: Upstream, d: Draft): UpdateUpstreamRequest {
  const next = settingsOf(d);
  const request: UpdateUpstreamRequest = { id: stored.id };
  const before: Record<string, unknown> = settingsOf(draftOf(stored));
  for (const [key, value] of Object.entries(next))
    if (JSON.stringify(value) !== JSON.stringify(before[key])) Object.assign(request, { [key]: value });
  if (d.clientSecret) request.clientSecret = d.clientSecret;
  return request;
}

/** Props of {@link UpstreamForm}. */
export interface UpstreamFormProps {
  /** The provider edited; none: a new one. */
  upstream?: Upstream;
  onConfirm: (c: Confirmation) => void;
  /** Editing ends (saved or cancelled). */
  onClose?: () => void;
  /** Saved: the page says it. */
  onSaved?: (message: string) => void;
}

/**
 * A new upstream provider, or the edit of one (issue 52, issue 53): the settings `admin idps add|update` takes,
 * checked in the page with the shared schema, then confirmed with a reason. The gateway reads the provider's
 * discovery before it saves; a failure comes back as the issuer's error and is shown there. The client secret is
 * write-only: empty keeps the stored one. The token endpoint authentication method may be left to discovery; the
 * method in use and the key set address to register for `private_key_jwt` are shown.
 */
export function UpstreamForm({ upstream, onConfirm, onClose, onSaved }: UpstreamFormProps) {
  const { t } = useTranslation('mfe-admin');
  const [create] = useCreateUpstreamMutation();
  const [update] = useUpdateUpstreamMutation();
  const partners = useConsolePartnersQuery();
  const [draft, setDraft] = useState<Draft>(() => draftOf(upstream));
  const [error, setError] = useState<Failure>(undefined);
  const errors = formErrorsOf(t, error);
  const headingId = useId();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: 'id' | 'name' | 'issuer' | 'clientId' | 'scopes' | 'buttonLabel', ltr = false) => (
    <TextField
      label={t(`applications.upstreams.fields.${key}`)}
      dir={ltr ? 'ltr' : undefined}
      autoComplete="off"
      value={draft[key]}
      onChange={(event) => set(key, event.target.value)}
      errors={errors.field(key)}
      data-testid={`upstream-field-${key}`}
    />
  );

  function confirmed<R>(request: R, call: (r: R) => Promise<{ error?: Failure; data?: unknown }>): void {
    const names = { provider: draft.name || draft.id };
    const action = upstream ? 'edit' : 'create';
    onConfirm({
      title: t(`applications.upstreams.${action}.title`, names),
      summary: t(`applications.upstreams.${action}.summary`, names),
      confirm: t(`applications.upstreams.${action}.confirm`),
      danger: false,
      formFields: FIELDS,
      run: async (reason) => {
        const result = await call({ ...request, ...(reason ? { reason } : {}) });
        if (result.error) setError(result.error);
        return result;
      },
      done: () => {
        onSaved?.(t(`applications.upstreams.${action}.done`, names));
        if (!upstream) setDraft(draftOf(undefined));
        onClose?.();
      },
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (upstream) {
      const request = changesOf(upstream, draft);
      const refusal = refusalOf(updateUpstreamRequestSchema.safeParse(request));
      if (refusal) return setError(refusal);
      return confirmed(request, update);
    }
    const request: CreateUpstreamRequest = {
      id: draft.id.trim(),
      ...settingsOf(draft),
      clientSecret: draft.clientSecret,
      vendor: draft.vendor,
    };
    const refusal = refusalOf(createUpstreamRequestSchema.safeParse(request));
    if (refusal) return setError(refusal);
    confirmed(request, create);
  }

  const methodErrors = errors.field('tokenAuthMethod');
  const roleErrors = errors.field('roles');
  const inUse = upstream?.tokenAuthMethodInUse;
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={headingId}
      data-testid={upstream ? `edit-upstream-${upstream.id}` : 'new-upstream'}
    >
      <Stack>
        <h3 id={headingId}>
          {upstream
            ? t('applications.upstreams.edit.heading', { provider: upstream.name })
            : t('applications.upstreams.create.heading')}
        </h3>
        {upstream ? null : text('id', true)}
        {text('name')}
        {text('issuer', true)}
        {text('clientId', true)}
        <TextField
          label={t('applications.upstreams.fields.clientSecret')}
          hint={upstream ? t('applications.upstreams.hints.clientSecretKeep') : undefined}
          type="password"
          dir="ltr"
          autoComplete="new-password"
          value={draft.clientSecret}
          onChange={(event) => set('clientSecret', event.target.value)}
          errors={errors.field('clientSecret')}
          data-testid="upstream-field-clientSecret"
        />
        {text('scopes', true)}
        <SelectField
          label={t('applications.upstreams.fields.partnerId')}
          value={draft.partnerId}
          onChange={(value) => set('partnerId', value)}
          errors={errors.field('partnerId')}
        >
          <option value="">{t('applications.upstreams.everyPartner')}</option>
          {(partners.data?.partners ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
          {draft.partnerId && !partners.data?.partners.some((p) => p.id === draft.partnerId) ? (
            <option value={draft.partnerId}>{draft.partnerId}</option>
          ) : null}
        </SelectField>
        {upstream ? null : (
          <Checkbox
            label={t('applications.upstreams.fields.vendor')}
            checked={draft.vendor}
            onChange={(event) => set('vendor', event.target.checked)}
          />
        )}
        {draft.vendor ? (
          <fieldset className="admin-roles" aria-invalid={roleErrors.length > 0 || undefined}>
            <legend>{t('applications.upstreams.fields.roles')}</legend>
            {UPSTREAM_VENDOR_ROLES.map((role) => (
              <Checkbox
                key={role}
                label={t(`people.roles.${role}`)}
                checked={draft.roles.includes(role)}
                onChange={(event) =>
                  set(
                    'roles',
                    event.target.checked ? [...draft.roles, role] : draft.roles.filter((r) => r !== role),
                  )
                }
              />
            ))}
            <FormErrors messages={roleErrors} />
          </fieldset>
        ) : null}
        {text('buttonLabel')}
        <Checkbox
          label={t('applications.upstreams.fields.trustUpstreamMfa')}
          checked={draft.trustUpstreamMfa}
          onChange={(event) => set('trustUpstreamMfa', event.target.checked)}
        />
        <SelectField
          label={t('applications.upstreams.fields.tokenAuthMethod')}
          value={draft.tokenAuthMethod}
          onChange={(value) => set('tokenAuthMethod', value as Draft['tokenAuthMethod'])}
          errors={methodErrors}
          testId="upstream-field-tokenAuthMethod"
          hint={
            <span data-testid="upstream-method-in-use">
              {upstream
                ? inUse
                  ? t('applications.upstreams.hints.inUse', {
                      method: t(`applications.upstreams.methods.${inUse}`),
                    })
                  : t('applications.upstreams.hints.notDiscovered')
                : t('applications.upstreams.hints.auto')}
            </span>
          }
        >
          <option value="">{t('applications.upstreams.methods.auto')}</option>
          {UPSTREAM_TOKEN_AUTH_METHODS.map((m) => (
            <option key={m} value={m}>
              {t(`applications.upstreams.methods.${m}`)}
            </option>
          ))}
        </SelectField>
        {upstream?.jwksUri ? (
          <div className="hr-field">
            <p className="hr-field__label">{t('applications.upstreams.fields.jwksUri')}</p>
            <code dir="ltr" data-testid="upstream-jwks-uri">
              {upstream.jwksUri}
            </code>
            <p className="hr-field__hint">{t('applications.upstreams.hints.jwksUri')}</p>
          </div>
        ) : null}
        <FormErrors messages={[...errors.form, ...errors.field('vendor')]} />
        <div className="admin-release__actions">
          <Button type="submit">
            {t(upstream ? 'applications.upstreams.edit.open' : 'applications.upstreams.create.open')}
          </Button>
          {onClose ? (
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
          ) : null}
        </div>
      </Stack>
    </form>
  );
}
