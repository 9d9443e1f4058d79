import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf, type FormErrors as Errors } from 'shared-contracts/api';
import {
  createApplicationRequestSchema,
  updateApplicationRequestSchema,
  type Application,
  type ApplicationWithSecret,
} from 'shared-contracts/console';
import { Button, Checkbox, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import type { Confirmation, Failure } from '../shared/confirm-dialog';
import { refusalOf } from '../shared/schema-check';
import { TextAreaField } from '../shared/text-area-field';
import {
  useCreateApplicationMutation,
  useDisableApplicationMutation,
  useUpdateApplicationMutation,
} from './applications.api';
import { OneTimeSecret } from './one-time-secret';

/** The fields of an application a refusal may name; the form shows them on themselves. */
const FIELDS = [
  'clientId',
  'name',
  'redirectUris',
  'postLogoutRedirectUris',
  'backchannelLogoutUri',
  'initiateLoginUri',
] as const;

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** A list of addresses, one per line, left to right in every language (a URI is not translated text). */
function UriLines(props: { label: string; value: string; onChange: (v: string) => void; errors: string[] }) {
  return <TextAreaField {...props} dir="ltr" />;
}

/** Props of {@link ApplicationForm}. */
export interface ApplicationFormProps {
  /** The application edited; none: a new one. */
  application?: Application;
  onConfirm: (c: Confirmation) => void;
  /** Editing ends (saved or cancelled). */
  onClose?: () => void;
  /** Saved: the page says it in the application's row. */
  onSaved?: (message: string) => void;
}

/**
 * A new application, or the edit of one (issue 52): name, redirect and logout URIs (checked in the page with the
 * shared schema the gateway checks them with, as `admin clients add` does), and for an existing one whether it is
 * enabled. The confirmation takes the reason and saves; a refusal is shown on its field. A new confidential
 * application's secret is shown here once.
 */
export function ApplicationForm({ application, onConfirm, onClose, onSaved }: ApplicationFormProps) {
  const { t } = useTranslation('mfe-admin');
  const [create] = useCreateApplicationMutation();
  const [update] = useUpdateApplicationMutation();
  const [disable] = useDisableApplicationMutation();
  const [clientId, setClientId] = useState(application?.clientId ?? '');
  const [name, setName] = useState(application?.name ?? '');
  const [confidential, setConfidential] = useState(true);
  const [redirects, setRedirects] = useState(application?.redirectUris.join('\n') ?? '');
  const [logouts, setLogouts] = useState(application?.postLogoutRedirectUris.join('\n') ?? '');
  const [backchannel, setBackchannel] = useState(application?.backchannelLogoutUri ?? '');
  const [initiateLogin, setInitiateLogin] = useState(application?.initiateLoginUri ?? '');
  // A new application is first-party unless unticked, as `admin clients add` and CreateApplication default.
  const [firstParty, setFirstParty] = useState(application?.firstParty ?? true);
  const [enabled, setEnabled] = useState(!application?.disabled);
  const [error, setError] = useState<Failure>(undefined);
  const [created, setCreated] = useState<ApplicationWithSecret | undefined>(undefined);
  const errors: Errors = formErrorsOf(t, error);
  const headingId = useId();
  const fields = {
    name,
    redirectUris: lines(redirects),
    postLogoutRedirectUris: lines(logouts),
    // Empty clears an address (null), as `admin clients update` does with an empty value.
    backchannelLogoutUri: backchannel.trim() || null,
    initiateLoginUri: initiateLogin.trim() || null,
    firstParty,
  };

  function submitNew() {
    const request = { clientId: clientId.trim(), confidential, ...fields };
    const refusal = refusalOf(createApplicationRequestSchema.safeParse(request));
    if (refusal) return setError(refusal);
    onConfirm({
      title: t('applications.create.title'),
      summary: t('applications.create.summary', { application: name || clientId }),
      confirm: t('applications.create.confirm'),
      danger: false,
      formFields: FIELDS,
      run: async (reason) => {
        const result = await create({ ...request, ...(reason ? { reason } : {}) });
        if (result.error) setError(result.error);
        return result;
      },
      done: (data) => setCreated(data as ApplicationWithSecret),
    });
  }

  function submitEdit(stored: Application) {
    const request = { clientId: stored.clientId, ...fields };
    const refusal = refusalOf(updateApplicationRequestSchema.safeParse(request));
    if (refusal) return setError(refusal);
    const names = { application: name };
    const toggled = enabled === stored.disabled;
    onConfirm({
      title: t('applications.edit.title', { application: stored.name }),
      summary: t(
        toggled
          ? `applications.edit.summary.${enabled ? 'enable' : 'disable'}`
          : 'applications.edit.summary.keep',
        names,
      ),
      confirm: t('applications.edit.confirm'),
      danger: toggled && !enabled,
      formFields: FIELDS,
      run: async (reason) => {
        const why = reason ? { reason } : {};
        const result = await update({ ...request, ...why });
        if (result.error) {
          setError(result.error);
          return result;
        }
        return toggled ? disable({ clientId: stored.clientId, disabled: !enabled, ...why }) : result;
      },
      done: () => {
        onSaved?.(t('applications.edit.done', names));
        onClose?.();
      },
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setCreated(undefined);
    if (application) submitEdit(application);
    else submitNew();
  }

  const testId = application ? `edit-application-${application.clientId}` : 'new-application';
  return (
    <form noValidate onSubmit={submit} aria-labelledby={headingId} data-testid={testId}>
      <Stack>
        <h3 id={headingId}>
          {application
            ? t('applications.edit.heading', { application: application.name })
            : t('applications.create.heading')}
        </h3>
        {application ? null : (
          <TextField
            label={t('applications.fields.clientId')}
            dir="ltr"
            value={clientId}
            onChange={(event) => setClientId(event.target.value)}
            errors={errors.field('clientId')}
          />
        )}
        <TextField
          label={t('applications.fields.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          errors={errors.field('name')}
        />
        {application ? (
          <Checkbox
            label={t('applications.fields.enabled')}
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
        ) : (
          <Checkbox
            label={t('applications.fields.confidential')}
            checked={confidential}
            onChange={(event) => setConfidential(event.target.checked)}
          />
        )}
        <UriLines
          label={t('applications.fields.redirectUris')}
          value={redirects}
          onChange={setRedirects}
          errors={errors.field('redirectUris')}
        />
        <UriLines
          label={t('applications.fields.postLogoutRedirectUris')}
          value={logouts}
          onChange={setLogouts}
          errors={errors.field('postLogoutRedirectUris')}
        />
        <TextField
          label={t('applications.fields.backchannelLogoutUri')}
          hint={t('applications.hints.backchannelLogoutUri')}
          dir="ltr"
          value={backchannel}
          onChange={(event) => setBackchannel(event.target.value)}
          errors={errors.field('backchannelLogoutUri')}
        />
        <TextField
          label={t('applications.fields.initiateLoginUri')}
          hint={t('applications.hints.initiateLoginUri')}
          dir="ltr"
          value={initiateLogin}
          onChange={(event) => setInitiateLogin(event.target.value)}
          errors={errors.field('initiateLoginUri')}
        />
        <Checkbox
          label={t('applications.fields.firstParty')}
          checked={firstParty}
          onChange={(event) => setFirstParty(event.target.checked)}
        />
        <FormErrors messages={errors.form} />
        <div className="admin-release__actions">
          <Button type="submit">
            {t(application ? 'applications.edit.open' : 'applications.create.open')}
          </Button>
          {onClose ? (
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
          ) : null}
        </div>
        {created?.clientSecret ? <OneTimeSecret secret={created} /> : null}
      </Stack>
    </form>
  );
}
