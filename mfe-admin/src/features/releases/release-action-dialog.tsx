import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiError } from 'shared-contracts';
import { Dialog, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { RemoteRelease } from 'shared-contracts/console';
import { FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { formatPercent, formatRate, isolate } from '../shared/format';
import {
  useEndCanaryMutation,
  usePromoteReleaseMutation,
  useRollBackReleaseMutation,
  useSetCanaryGuardMutation,
  useStartCanaryMutation,
} from './releases.api';
import { ReasonField } from '../shared/reason-field';
import { DialogActions } from '../shared/dialog-actions';

/** The actions of a release card; each opens this dialog. */
export type ReleaseActionKind = 'startCanary' | 'endCanary' | 'promote' | 'rollBack' | 'guard';

/** Props of {@link ReleaseActionDialog}. */
export interface ReleaseActionDialogProps {
  kind: ReleaseActionKind;
  release: RemoteRelease;
  /** The action was done: the card shows `message` in its live region. */
  onDone: (message: string) => void;
  /** Closed without acting. */
  onClose: () => void;
}

/** The version a rollback returns to: the one made active most recently before the active one. */
export function previousActive(release: RemoteRelease): string | undefined {
  return release.versions
    .filter((v) => v.version !== release.active && v.activatedAt !== null)
    .sort((a, b) => (b.activatedAt ?? '').localeCompare(a.activatedAt ?? ''))[0]?.version;
}

/** Versions a canary or a promotion may choose: every published version but the active one, newest first. */
function choosable(release: RemoteRelease): string[] {
  return release.versions.map((v) => v.version).filter((v) => v !== release.active);
}

type Result = { data: unknown; error?: undefined } | { error: ApiError | SerializedError; data?: undefined };

/**
 * The confirmation of one release action (issue 51): it names what will happen (which version, to what share of
 * browsers, instead of which), takes the choices the action needs and an optional reason, and only then calls. A
 * refusal for a sign-in that is not recent opens "Confirm it's you" over it and the call is sent again (the calls'
 * `confirmedChange`); any other refusal is shown in the dialog, field by field (SPEC.md §4).
 */
export function ReleaseActionDialog({ kind, release, onDone, onClose }: ReleaseActionDialogProps) {
  const { t } = useTranslation('mfe-admin');
  return (
    <Dialog
      open
      title={t(`actions.${kind}.title`, { remote: release.id })}
      onClose={onClose}
      testId="release-dialog"
    >
      <ActionForm kind={kind} release={release} onDone={onDone} onClose={onClose} />
    </Dialog>
  );
}

function ActionForm({ kind, release, onDone, onClose }: ReleaseActionDialogProps) {
  const { t, i18n } = useTranslation('mfe-admin');
  const locale = i18n.language;
  const descriptionId = useDialogDescriptionId();
  const versions = choosable(release);
  const [version, setVersion] = useState(release.canary?.version ?? versions[0] ?? '');
  const [share, setShare] = useState(String(release.canary?.percent ?? 10));
  const [pageLoads, setPageLoads] = useState(String(release.guard.minPageLoads));
  const [rate, setRate] = useState(String(+(release.guard.minFailureRate * 100).toFixed(4)));
  const [ratio, setRatio] = useState(String(release.guard.ratio));
  const [reason, setReason] = useState('');
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [startCanary] = useStartCanaryMutation();
  const [endCanary] = useEndCanaryMutation();
  const [promote] = usePromoteReleaseMutation();
  const [rollBack] = useRollBackReleaseMutation();
  const [setGuard] = useSetCanaryGuardMutation();

  const remote = release.id;
  const active = release.active ? isolate(release.active) : t('releases.none');
  const previousVersion = previousActive(release);
  const previous = previousVersion ? isolate(previousVersion) : t('releases.previousUnknown');
  // Names and versions in sentences keep their own order right to left.
  const name = isolate(remote);
  const chosen = version ? isolate(version) : '—';
  const shareNumber = Number(share);
  const summary = {
    startCanary: t('actions.startCanary.summary', {
      remote: name,
      version: chosen,
      share: Number.isInteger(shareNumber) ? formatPercent(shareNumber, locale) : share,
      active,
    }),
    endCanary: t('actions.endCanary.summary', {
      remote: name,
      version: release.canary ? isolate(release.canary.version) : '—',
      active,
    }),
    promote: t('actions.promote.summary', { remote: name, version: chosen, active }),
    rollBack: t('actions.rollBack.summary', { remote: name, active, previous }),
    guard: t('actions.guard.summary', {
      remote: name,
      pageLoads,
      rate: Number.isFinite(Number(rate)) ? formatRate(Number(rate) / 100, locale) : rate,
      ratio,
    }),
  }[kind];

  /** Client checks of what the schemas allow, before any call (the gateway checks the same and answers 400). */
  function check(): Record<string, string> {
    const found: Record<string, string> = {};
    const between = (value: string, min: number, max: number, whole: boolean) => {
      const n = Number(value);
      return (
        value.trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (!whole || Number.isInteger(n))
      );
    };
    if ((kind === 'startCanary' || kind === 'promote') && !version) found.version = t('checks.version');
    if (kind === 'startCanary' && !between(share, 1, 99, true)) found.percent = t('checks.share');
    if (kind === 'guard') {
      if (!between(pageLoads, 1, 1_000_000, true)) found.minPageLoads = t('checks.pageLoads');
      if (!between(rate, 0, 100, false)) found.minFailureRate = t('checks.rate');
      if (!between(ratio, 1, 100, false)) found.ratio = t('checks.ratio');
    }
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check();
    setChecks(found);
    setError(undefined);
    if (Object.keys(found).length > 0) return;
    const why = reason.trim() ? { reason: reason.trim() } : {};
    setBusy(true);
    let result: Result;
    let done: string;
    switch (kind) {
      case 'startCanary':
        result = await startCanary({ remote, version, percent: shareNumber, ...why });
        done = t('results.canaryStarted', {
          remote: name,
          version: chosen,
          share: formatPercent(shareNumber, locale),
        });
        break;
      case 'endCanary':
        result = await endCanary({ remote, ...why });
        done = t('results.canaryEnded', { remote: name, active });
        break;
      case 'promote':
        result = await promote({ remote, version, ...why });
        done = t('results.promoted', { remote: name, version: chosen });
        break;
      case 'rollBack':
        result = await rollBack({ remote, ...why });
        done = t('results.rolledBack', { remote: name });
        break;
      case 'guard':
        result = await setGuard({
          remote,
          minPageLoads: Number(pageLoads),
          minFailureRate: Number(rate) / 100,
          ratio: Number(ratio),
          ...why,
        });
        done = t('results.guardChanged', { remote: name });
        break;
    }
    setBusy(false);
    if (result.error) setError(result.error);
    else onDone(done);
  }

  const errors = formErrorsOf(t, error);
  const fieldErrors = (name: string) => [...(checks[name] ? [checks[name]] : []), ...errors.field(name)];
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId} data-testid="release-dialog-summary">
          {summary}
        </p>
        {kind === 'startCanary' || kind === 'promote' ? (
          <VersionSelect
            versions={versions}
            value={version}
            onChange={setVersion}
            errors={fieldErrors('version')}
          />
        ) : null}
        {kind === 'startCanary' ? (
          <TextField
            label={t('actions.share')}
            hint={t('actions.shareHint')}
            type="number"
            inputMode="numeric"
            min={1}
            max={99}
            step={1}
            value={share}
            onChange={(event) => setShare(event.target.value)}
            errors={fieldErrors('percent')}
          />
        ) : null}
        {kind === 'guard' ? (
          <>
            <TextField
              label={t('guard.minPageLoads')}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={pageLoads}
              onChange={(event) => setPageLoads(event.target.value)}
              errors={fieldErrors('minPageLoads')}
            />
            <TextField
              label={t('guard.minFailureRate')}
              hint={t('guard.minFailureRateHint')}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step={0.1}
              value={rate}
              onChange={(event) => setRate(event.target.value)}
              errors={fieldErrors('minFailureRate')}
            />
            <TextField
              label={t('guard.ratio')}
              hint={t('guard.ratioHint')}
              type="number"
              inputMode="decimal"
              min={1}
              max={100}
              step={0.1}
              value={ratio}
              onChange={(event) => setRatio(event.target.value)}
              errors={fieldErrors('ratio')}
            />
          </>
        ) : null}
        <ReasonField label={t('actions.reason')} value={reason} onChange={setReason} />
        <FormErrors messages={errors.form} />
        <DialogActions
          cancel={t('actions.cancel')}
          confirm={t(`actions.${kind}.confirm`)}
          danger={kind === 'rollBack' || kind === 'endCanary'}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}

function VersionSelect({
  versions,
  value,
  onChange,
  errors,
}: {
  versions: string[];
  value: string;
  onChange: (version: string) => void;
  errors: string[];
}) {
  const { t } = useTranslation('mfe-admin');
  const id = useId();
  return (
    <div className="hr-field">
      <label className="hr-field__label" htmlFor={id}>
        {t('actions.version')}
      </label>
      <select
        id={id}
        className="hr-field__input"
        value={value}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length > 0 ? `${id}-errors` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {versions.length === 0 ? <option value="">{t('actions.noVersions')}</option> : null}
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
      {errors.length > 0 ? (
        <ul id={`${id}-errors`} className="hr-field__errors">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
