import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_APPLICATIONS_PATH } from 'shared-contracts';
import { ResultStatus } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { Application, ApplicationWithSecret, Upstream } from 'shared-contracts/console';
import { Button, FormErrors, ProgressBar } from 'shared-contracts/ui';
import { ConfirmDialog, type Confirmation } from '../shared/confirm-dialog';
import { ConsoleLayout } from '../shared/console-layout';
import { ApplicationForm } from './application-form';
import {
  useConsoleApplicationsQuery,
  useConsoleUpstreamsQuery,
  useDisableApplicationMutation,
  useDisableUpstreamMutation,
  useRotateApplicationSecretMutation,
} from './applications.api';
import { OneTimeSecret } from './one-time-secret';
import { UpstreamForm } from './upstream-form';

/** What the page edits: one application or one provider at a time. */
type Editing = { application: string } | { upstream: string } | undefined;

/** What a row of either table is given by the page. */
interface RowProps {
  onConfirm: (c: Confirmation) => void;
  onEdit: () => void;
}

function ApplicationRow({ application, onConfirm, onEdit }: RowProps & { application: Application }) {
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
          <Button type="button" variant="secondary" onClick={onEdit}>
            {t('applications.edit.start')}
          </Button>
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

function UpstreamRow({ upstream, onConfirm, onEdit }: RowProps & { upstream: Upstream }) {
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
        <div className="admin-release__actions">
          <Button type="button" variant="secondary" onClick={onEdit}>
            {t('applications.edit.start')}
          </Button>
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
        </div>
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
  const [editing, setEditing] = useState<Editing>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const confirm = (c: Confirmation) =>
    setConfirmation({
      ...c,
      done: (data) => {
        setConfirmation(undefined);
        c.done(data);
      },
    });
  const edit = (what: Editing) => {
    setSaved(undefined);
    setEditing(what);
  };
  const stopEditing = () => setEditing(undefined);
  const editedApplication =
    editing && 'application' in editing
      ? clients.data?.applications.find((a) => a.clientId === editing.application)
      : undefined;
  const editedUpstream =
    editing && 'upstream' in editing
      ? upstreams.data?.upstreams.find((u) => u.id === editing.upstream)
      : undefined;
  const headings = ['name', 'id', 'kind', 'status', 'actions'] as const;
  return (
    <>
      <p>{t('applications.intro')}</p>
      <ProgressBar active={clients.isLoading || upstreams.isLoading} label={t('applications.loading')} />
      <FormErrors
        messages={[...formErrorsOf(t, clients.error).form, ...formErrorsOf(t, upstreams.error).form]}
      />
      <ResultStatus message={saved} testId="applications-saved" />
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
                <ApplicationRow
                  key={application.clientId}
                  application={application}
                  onConfirm={confirm}
                  onEdit={() => edit({ application: application.clientId })}
                />
              ))}
            </tbody>
          </table>
        </div>
        {editedApplication ? (
          <ApplicationForm
            key={editedApplication.clientId}
            application={editedApplication}
            onConfirm={confirm}
            onClose={stopEditing}
            onSaved={setSaved}
          />
        ) : (
          <ApplicationForm onConfirm={confirm} />
        )}
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
                <UpstreamRow
                  key={upstream.id}
                  upstream={upstream}
                  onConfirm={confirm}
                  onEdit={() => edit({ upstream: upstream.id })}
                />
              ))}
            </tbody>
          </table>
        </div>
        {editedUpstream ? (
          <UpstreamForm
            key={editedUpstream.id}
            upstream={editedUpstream}
            onConfirm={confirm}
            onClose={stopEditing}
            onSaved={setSaved}
          />
        ) : (
          <UpstreamForm onConfirm={confirm} onSaved={setSaved} />
        )}
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
