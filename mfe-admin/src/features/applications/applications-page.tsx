import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import { ADMIN_APPLICATIONS_PATH, type ApiError } from 'shared-contracts';
import { Dialog, ResultStatus, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { Application, ApplicationWithSecret, Upstream } from 'shared-contracts/console';
import { Button, Checkbox, FormErrors, ProgressBar, Stack, TextField } from 'shared-contracts/ui';
import { ConsoleLayout } from '../shared/console-layout';
import {
  useConsoleApplicationsQuery,
  useConsoleUpstreamsQuery,
  useCreateApplicationMutation,
  useDisableApplicationMutation,
  useDisableUpstreamMutation,
  useRotateApplicationSecretMutation,
} from './applications.api';
import { ReasonField } from '../shared/reason-field';
import { DialogActions } from '../shared/dialog-actions';

type Failure = ApiError | SerializedError | undefined;
type Outcome = { error?: Failure; data?: unknown };

/** What a confirmation acts on: its title, what will happen, and the call with the reason given. */
interface Confirmation {
  title: string;
  summary: string;
  confirm: string;
  danger: boolean;
  run: (reason: string | undefined) => Promise<Outcome>;
  done: (data: unknown) => void;
}

/** The fields a refusal may name, shown in the dialog too (the form shows them on its fields). */
const REFUSED_FIELDS = [
  'clientId',
  'name',
  'redirectUris',
  'postLogoutRedirectUris',
  'id',
  'disabled',
] as const;

/** Confirms one action with an optional reason; a refusal stays in the dialog, field by field (SPEC.md §4). */
function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation; onClose: () => void }) {
  return (
    <Dialog open title={confirmation.title} onClose={onClose} testId="application-dialog">
      <ConfirmForm confirmation={confirmation} onClose={onClose} />
    </Dialog>
  );
}

function ConfirmForm({ confirmation, onClose }: { confirmation: Confirmation; onClose: () => void }) {
  const { t } = useTranslation('mfe-admin');
  const descriptionId = useDialogDescriptionId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failure>(undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await confirmation.run(reason.trim() || undefined);
    setBusy(false);
    if (result.error) setError(result.error);
    else confirmation.done(result.data);
  }

  const errors = formErrorsOf(t, error);
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId}>{confirmation.summary}</p>
        <ReasonField label={t('actions.reason')} value={reason} onChange={setReason} />
        <FormErrors messages={[...errors.form, ...REFUSED_FIELDS.flatMap((field) => errors.field(field))]} />
        <DialogActions
          cancel={t('actions.cancel')}
          confirm={confirmation.confirm}
          danger={confirmation.danger}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}

/** The secret of a client, shown once (after creation or rotation) with what to do with it. */
function OneTimeSecret({ secret }: { secret: ApplicationWithSecret }) {
  const { t } = useTranslation('mfe-admin');
  return (
    <div className="admin-secret" data-testid="application-secret-panel">
      <p>{t('applications.secret.intro', { application: secret.application.name })}</p>
      <code dir="ltr" data-testid="application-secret">
        {secret.clientSecret}
      </code>
    </div>
  );
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The form of a new application; the confirmation creates it. */
function NewApplication({ onConfirm }: { onConfirm: (c: Confirmation) => void }) {
  const { t } = useTranslation('mfe-admin');
  const [create] = useCreateApplicationMutation();
  const [clientId, setClientId] = useState('');
  const [name, setName] = useState('');
  const [confidential, setConfidential] = useState(true);
  const [redirects, setRedirects] = useState('');
  const [logouts, setLogouts] = useState('');
  const [error, setError] = useState<Failure>(undefined);
  const [created, setCreated] = useState<ApplicationWithSecret | undefined>(undefined);
  const redirectsId = useId();
  const logoutsId = useId();
  const errors = formErrorsOf(t, error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setCreated(undefined);
    onConfirm({
      title: t('applications.create.title'),
      summary: t('applications.create.summary', { application: name || clientId }),
      confirm: t('applications.create.confirm'),
      danger: false,
      run: async (reason) => {
        const result = await create({
          clientId: clientId.trim(),
          name,
          confidential,
          redirectUris: lines(redirects),
          postLogoutRedirectUris: lines(logouts),
          ...(reason ? { reason } : {}),
        });
        if (result.error) setError(result.error);
        return result;
      },
      done: (data) => setCreated(data as ApplicationWithSecret),
    });
  }

  const area = (id: string, label: string, value: string, set: (v: string) => void, field: string) => (
    <div className="hr-field">
      <label className="hr-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        dir="ltr"
        className="hr-field__input"
        rows={2}
        value={value}
        aria-invalid={errors.field(field).length > 0 || undefined}
        aria-describedby={errors.field(field).length > 0 ? `${id}-errors` : undefined}
        onChange={(event) => set(event.target.value)}
      />
      {errors.field(field).length > 0 ? (
        <ul id={`${id}-errors`} className="hr-field__errors">
          {errors.field(field).map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );

  return (
    <form noValidate onSubmit={submit} aria-labelledby="new-application-title" data-testid="new-application">
      <Stack>
        <h3 id="new-application-title">{t('applications.create.heading')}</h3>
        <TextField
          label={t('applications.fields.clientId')}
          dir="ltr"
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
          errors={errors.field('clientId')}
        />
        <TextField
          label={t('applications.fields.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          errors={errors.field('name')}
        />
        <Checkbox
          label={t('applications.fields.confidential')}
          checked={confidential}
          onChange={(event) => setConfidential(event.target.checked)}
        />
        {area(redirectsId, t('applications.fields.redirectUris'), redirects, setRedirects, 'redirectUris')}
        {area(
          logoutsId,
          t('applications.fields.postLogoutRedirectUris'),
          logouts,
          setLogouts,
          'postLogoutRedirectUris',
        )}
        <FormErrors messages={errors.form} />
        <div>
          <Button type="submit">{t('applications.create.open')}</Button>
        </div>
        {created?.clientSecret ? <OneTimeSecret secret={created} /> : null}
      </Stack>
    </form>
  );
}

function ApplicationRow({
  application,
  onConfirm,
}: {
  application: Application;
  onConfirm: (c: Confirmation) => void;
}) {
  const { t } = useTranslation('mfe-admin');
  const [rotate] = useRotateApplicationSecretMutation();
  const [disable] = useDisableApplicationMutation();
  const [result, setResult] = useState<string | undefined>(undefined);
  const [secret, setSecret] = useState<ApplicationWithSecret | undefined>(undefined);
  const names = { application: application.name };
  return (
    <tr data-testid={`application-${application.clientId}`}>
      <th scope="row">{application.name}</th>
      <td dir="ltr">{application.clientId}</td>
      <td>{t(application.confidential ? 'applications.confidential' : 'applications.public')}</td>
      <td>{t(application.disabled ? 'applications.disabled' : 'applications.enabled')}</td>
      <td>
        <div className="admin-release__actions">
          {application.confidential ? (
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setSecret(undefined);
                onConfirm({
                  title: t('applications.rotate.title', names),
                  summary: t('applications.rotate.summary', names),
                  confirm: t('applications.rotate.confirm'),
                  danger: true,
                  run: (reason) => rotate({ clientId: application.clientId, ...(reason ? { reason } : {}) }),
                  done: (data) => {
                    setSecret(data as ApplicationWithSecret);
                    setResult(t('applications.rotate.done', names));
                  },
                });
              }}
            >
              {t('applications.rotate.open')}
            </Button>
          ) : null}
          <Button
            type="button"
            variant={application.disabled ? 'secondary' : 'danger'}
            onClick={() => {
              const action = application.disabled ? 'enable' : 'disable';
              onConfirm({
                title: t(`applications.${action}.title`, names),
                summary: t(`applications.${action}.summary`, names),
                confirm: t(`applications.${action}.confirm`),
                danger: action === 'disable',
                run: (reason) =>
                  disable({
                    clientId: application.clientId,
                    disabled: !application.disabled,
                    ...(reason ? { reason } : {}),
                  }),
                done: () => setResult(t(`applications.${action}.done`, names)),
              });
            }}
          >
            {t(application.disabled ? 'applications.enable.open' : 'applications.disable.open')}
          </Button>
        </div>
        {secret ? <OneTimeSecret secret={secret} /> : null}
        <ResultStatus message={result} testId={`application-${application.clientId}-result`} />
      </td>
    </tr>
  );
}

function UpstreamRow({ upstream, onConfirm }: { upstream: Upstream; onConfirm: (c: Confirmation) => void }) {
  const { t } = useTranslation('mfe-admin');
  const [disable] = useDisableUpstreamMutation();
  const [result, setResult] = useState<string | undefined>(undefined);
  const names = { provider: upstream.name };
  const action = upstream.disabled ? 'enable' : 'disable';
  return (
    <tr data-testid={`upstream-${upstream.id}`}>
      <th scope="row">{upstream.name}</th>
      <td dir="ltr">{upstream.issuer}</td>
      <td>{t(upstream.vendor ? 'applications.upstreams.vendor' : 'applications.upstreams.login')}</td>
      <td>{t(upstream.disabled ? 'applications.disabled' : 'applications.enabled')}</td>
      <td>
        <Button
          type="button"
          variant={upstream.disabled ? 'secondary' : 'danger'}
          onClick={() =>
            onConfirm({
              title: t(`applications.upstreams.${action}.title`, names),
              summary: t(`applications.upstreams.${action}.summary`, names),
              confirm: t(`applications.${action}.confirm`),
              danger: action === 'disable',
              run: (reason) =>
                disable({ id: upstream.id, disabled: !upstream.disabled, ...(reason ? { reason } : {}) }),
              done: () => setResult(t(`applications.upstreams.${action}.done`, names)),
            })
          }
        >
          {t(`applications.${action}.open`)}
        </Button>
        <ResultStatus message={result} testId={`upstream-${upstream.id}-result`} />
      </td>
    </tr>
  );
}

function Applications() {
  const { t } = useTranslation('mfe-admin');
  const clients = useConsoleApplicationsQuery();
  const upstreams = useConsoleUpstreamsQuery();
  const [confirmation, setConfirmation] = useState<Confirmation | undefined>(undefined);
  const confirm = (c: Confirmation) =>
    setConfirmation({
      ...c,
      done: (data) => {
        setConfirmation(undefined);
        c.done(data);
      },
    });
  const headings = ['name', 'id', 'kind', 'status', 'actions'] as const;
  return (
    <>
      <p>{t('applications.intro')}</p>
      <ProgressBar active={clients.isLoading || upstreams.isLoading} label={t('applications.loading')} />
      <FormErrors
        messages={[...formErrorsOf(t, clients.error).form, ...formErrorsOf(t, upstreams.error).form]}
      />
      <section>
        <h2 id="applications-title">{t('applications.clients')}</h2>
        <div className="admin-scroll" tabIndex={0} role="region" aria-labelledby="applications-title">
          <table className="admin-table">
            <thead>
              <tr>
                {headings.map((h) => (
                  <th key={h} scope="col">
                    {t(`applications.columns.${h}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(clients.data?.applications ?? []).map((application) => (
                <ApplicationRow key={application.clientId} application={application} onConfirm={confirm} />
              ))}
            </tbody>
          </table>
        </div>
        <NewApplication onConfirm={confirm} />
      </section>
      <section>
        <h2 id="upstreams-title">{t('applications.upstreams.title')}</h2>
        <div className="admin-scroll" tabIndex={0} role="region" aria-labelledby="upstreams-title">
          <table className="admin-table">
            <thead>
              <tr>
                {headings.map((h) => (
                  <th key={h} scope="col">
                    {t(h === 'id' ? 'applications.columns.issuer' : `applications.columns.${h}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(upstreams.data?.upstreams ?? []).map((upstream) => (
                <UpstreamRow key={upstream.id} upstream={upstream} onConfirm={confirm} />
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {confirmation ? (
        <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(undefined)} />
      ) : null}
    </>
  );
}

/** `/admin/applications` (issue 52): OIDC clients and upstream providers, for platform administrators. */
export function ApplicationsPage() {
  return (
    <ConsoleLayout
      titleKey="routes.applications"
      permission="console.applications.read"
      path={ADMIN_APPLICATIONS_PATH}
    >
      <Applications />
    </ConsoleLayout>
  );
}
