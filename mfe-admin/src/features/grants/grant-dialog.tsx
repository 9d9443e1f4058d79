import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiError } from 'shared-contracts';
import { Dialog, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { CONSOLE_ROLES, type ConsoleRole, type ListedGrant } from 'shared-contracts/console';
import { FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { isolate } from '../shared/format';
import { usePeopleSuggestions } from '../shared/people-search.api';
import { SuggestionList } from '../shared/suggestion-list';
import { useGrantConsoleRoleMutation, useWithdrawConsoleRoleMutation } from './grants.api';
import { ReasonField } from '../shared/reason-field';
import { DialogActions } from '../shared/dialog-actions';

/** Props of {@link GrantDialog}. */
export interface GrantDialogProps {
  /** Withdraw this grant; undefined: give a new one (the form asks whom, which role and where). */
  withdraw?: ListedGrant | undefined;
  /** Done: the page says `message` in its live region. */
  onDone: (message: string) => void;
  onClose: () => void;
}

/** Where a grant applies, in words: everywhere, a partner, or a customer. */
export function useScopeText() {
  const { t } = useTranslation('mfe-admin');
  return (grant: Pick<ListedGrant, 'partnerId' | 'customerId'>) =>
    grant.customerId !== null
      ? t('grants.scopeCustomer', { customer: isolate(grant.customerId) })
      : grant.partnerId !== null
        ? t('grants.scopePartner', { partner: isolate(grant.partnerId) })
        : t('grants.scopeEverywhere');
}

/**
 * Giving or withdrawing a console role (issue 52): the form names the account, the role and where it applies, and
 * takes a reason (required: every console action is confirmed with one); the refusals of the grants service (more
 * than you hold, the last platform administrator, …) are shown field by field.
 */
export function GrantDialog({ withdraw, onDone, onClose }: GrantDialogProps) {
  const { t } = useTranslation('mfe-admin');
  return (
    <Dialog
      open
      title={withdraw ? t('grants.withdrawTitle') : t('grants.grantTitle')}
      onClose={onClose}
      testId="grant-dialog"
    >
      <GrantForm withdraw={withdraw} onDone={onDone} onClose={onClose} />
    </Dialog>
  );
}

function GrantForm({ withdraw, onDone, onClose }: GrantDialogProps) {
  const { t } = useTranslation('mfe-admin');
  const descriptionId = useDialogDescriptionId();
  const roleId = useId();
  const suggestionsId = useId();
  const scopeText = useScopeText();
  const [username, setUsername] = useState(withdraw?.username ?? '');
  const [role, setRole] = useState<ConsoleRole>(withdraw?.role ?? 'support');
  const [partnerId, setPartnerId] = useState(withdraw?.partnerId ?? '');
  const [customerId, setCustomerId] = useState(withdraw?.customerId ?? '');
  const [reason, setReason] = useState('');
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [grant] = useGrantConsoleRoleMutation();
  const [take] = useWithdrawConsoleRoleMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!username.trim()) found.username = t('grants.checks.username');
    if (!reason.trim()) found.reason = t('grants.checks.reason');
    setChecks(found);
    setError(undefined);
    if (Object.keys(found).length > 0) return;
    const request = {
      username: username.trim(),
      role,
      partnerId: partnerId.trim() || null,
      customerId: customerId.trim() || null,
      reason: reason.trim(),
    };
    setBusy(true);
    const result = withdraw ? await take(request) : await grant(request);
    setBusy(false);
    if (result.error) {
      setError(result.error);
      return;
    }
    const values = {
      username: isolate(request.username),
      role: t(`grants.roles.${role}`),
      scope: scopeText(request),
    };
    onDone(withdraw ? t('grants.withdrawn', values) : t('grants.granted', values));
  }

  const errors = formErrorsOf(t, error);
  const fieldErrors = (name: string) => [...(checks[name] ? [checks[name]] : []), ...errors.field(name)];
  const roleErrors = fieldErrors('role');
  // The people whose usernames start or contain what is typed (ConsolePeople), offered as one types.
  const found = usePeopleSuggestions(withdraw ? '' : username);
  const suggestions = (found?.people ?? []).map((p) => ({ value: p.username, label: p.displayName }));
  const reasonErrors = fieldErrors('reason');
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId} data-testid="grant-dialog-summary">
          {withdraw
            ? t('grants.withdrawSummary', {
                username: isolate(withdraw.username),
                role: t(`grants.roles.${withdraw.role}`),
                scope: scopeText(withdraw),
              })
            : t('grants.grantSummary')}
        </p>
        {withdraw ? null : (
          <>
            <TextField
              label={t('grants.username')}
              autoComplete="off"
              value={username}
              list={suggestionsId}
              onChange={(event) => setUsername(event.target.value)}
              errors={fieldErrors('username')}
            />
            <SuggestionList id={suggestionsId} suggestions={suggestions} />
            <div className="hr-field">
              <label className="hr-field__label" htmlFor={roleId}>
                {t('grants.role')}
              </label>
              <select
                id={roleId}
                className="hr-field__input"
                value={role}
                aria-invalid={roleErrors.length > 0 || undefined}
                aria-describedby={roleErrors.length > 0 ? `${roleId}-errors` : undefined}
                onChange={(event) => setRole(event.target.value as ConsoleRole)}
              >
                {CONSOLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t(`grants.roles.${r}`)}
                  </option>
                ))}
              </select>
              {roleErrors.length > 0 ? (
                <ul id={`${roleId}-errors`} className="hr-field__errors">
                  {roleErrors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              ) : null}
            </div>
            <TextField
              label={t('grants.partner')}
              hint={t('grants.partnerHint')}
              autoComplete="off"
              value={partnerId}
              onChange={(event) => setPartnerId(event.target.value)}
              errors={fieldErrors('partnerId')}
            />
            <TextField
              label={t('grants.customer')}
              hint={t('grants.customerHint')}
              autoComplete="off"
              value={customerId}
              onChange={(event) => setCustomerId(event.target.value)}
              errors={fieldErrors('customerId')}
            />
          </>
        )}
        {withdraw ? <FormErrors messages={[...errors.field('role'), ...errors.field('username')]} /> : null}
        <ReasonField
          label={t('grants.reason')}
          value={reason}
          onChange={setReason}
          errors={reasonErrors}
          required
        />
        <FormErrors messages={errors.form} />
        <DialogActions
          cancel={t('actions.cancel')}
          confirm={withdraw ? t('grants.withdrawConfirm') : t('grants.grantConfirm')}
          danger={withdraw !== undefined}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}
