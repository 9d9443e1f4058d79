import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiError } from 'shared-contracts';
import { Dialog, useDialogDescriptionId } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import { PERSON_ROLES, type ConsolePerson, type PersonRole } from 'shared-contracts/console';
import { Checkbox, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { isolate } from '../shared/format';
import { usePeopleSuggestions } from '../shared/people-search.api';
import { SuggestionList } from '../shared/suggestion-list';
import {
  useAddPersonMembershipMutation,
  usePersonActionMutation,
  useRemovePersonMembershipMutation,
  type PersonAction,
} from './people.api';
import { ReasonField } from '../shared/reason-field';
import { DialogActions } from '../shared/dialog-actions';

/** What a dialog of the person's page does: one of the plain actions, or a membership added or removed. */
export type PersonDialogKind =
  | { kind: 'action'; call: PersonAction }
  | { kind: 'addMembership' }
  | { kind: 'removeMembership'; customerId: string; customerName: string };

/** Props of {@link PersonActionDialog}. */
export interface PersonActionDialogProps {
  what: PersonDialogKind;
  person: ConsolePerson;
  /** Done: the page says `message` in its live region. */
  onDone: (message: string) => void;
  onClose: () => void;
}

type Result = { data: unknown; error?: undefined } | { error: ApiError | SerializedError; data?: undefined };

const keyOf = (what: PersonDialogKind) =>
  what.kind === 'action' ? `people.actions.${what.call}` : `people.${what.kind}`;

/**
 * The confirmation of one change of a person (issue 52): it says what will happen to whom, takes the reason (required:
 * it goes to the audit) and, for a membership, the customer and its roles; only then it calls. A refusal for a sign-in
 * that is not recent opens "Confirm it's you" over it and the call is sent again; any other is shown field by field.
 */
export function PersonActionDialog(props: PersonActionDialogProps) {
  const { t } = useTranslation('mfe-admin');
  return (
    <Dialog open title={t(`${keyOf(props.what)}.title`)} onClose={props.onClose} testId="person-dialog">
      <ActionForm {...props} />
    </Dialog>
  );
}

function ActionForm({ what, person, onDone, onClose }: PersonActionDialogProps) {
  const { t } = useTranslation('mfe-admin');
  const descriptionId = useDialogDescriptionId();
  const rolesId = useId();
  const customersId = useId();
  const [reason, setReason] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [roles, setRoles] = useState<PersonRole[]>(['EMPLOYEE']);
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | SerializedError | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [act] = usePersonActionMutation();
  const [add] = useAddPersonMembershipMutation();
  const [remove] = useRemovePersonMembershipMutation();
  const key = keyOf(what);
  const name = isolate(person.displayName);
  const customer = what.kind === 'removeMembership' ? isolate(what.customerName) : '';

  function check(): Record<string, string> {
    const found: Record<string, string> = {};
    if (!reason.trim()) found.reason = t('people.checks.reason');
    if (what.kind === 'addMembership') {
      if (!customerId.trim()) found.customerId = t('people.checks.customer');
      if (roles.length === 0) found.roles = t('people.checks.roles');
    }
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check();
    setChecks(found);
    setError(undefined);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const why = reason.trim();
    let result: Result;
    if (what.kind === 'action') result = await act({ call: what.call, id: person.id, reason: why });
    else if (what.kind === 'addMembership')
      result = await add({ id: person.id, customerId: customerId.trim(), roles, reason: why });
    else result = await remove({ id: person.id, customerId: what.customerId, reason: why });
    setBusy(false);
    if (result.error) setError(result.error);
    else onDone(t(`${key}.done`, { name, customer: isolate(customerId.trim()) || customer }));
  }

  const errors = formErrorsOf(t, error);
  const fieldErrors = (field: string) => [...(checks[field] ? [checks[field]] : []), ...errors.field(field)];
  const toggle = (role: PersonRole, on: boolean) =>
    setRoles((now) => (on ? [...now, role] : now.filter((r) => r !== role)));
  const reasonErrors = fieldErrors('reason');
  const roleErrors = fieldErrors('roles');
  // Customers named like what is typed, from the people search (it matches a customer's name and answers each
  // person's customers in the caller's reach): only customers the caller may change memberships of.
  const typed = customerId.trim().toLowerCase();
  const found = usePeopleSuggestions(what.kind === 'addMembership' ? customerId : '');
  const customers = new Map<string, string>();
  for (const p of found?.people ?? [])
    for (const c of p.customers)
      if (c.name.toLowerCase().includes(typed) || c.id.toLowerCase().includes(typed))
        customers.set(c.id, c.name);
  const danger =
    what.kind === 'removeMembership' || (what.kind === 'action' && what.call === 'DisablePerson');
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <p id={descriptionId} data-testid="person-dialog-summary">
          {t(`${key}.summary`, { name, customer })}
        </p>
        {what.kind === 'addMembership' ? (
          <>
            <TextField
              label={t('people.addMembership.customerId')}
              hint={t('people.addMembership.customerIdHint')}
              value={customerId}
              list={customersId}
              onChange={(event) => setCustomerId(event.target.value)}
              errors={fieldErrors('customerId')}
              data-testid="membership-customer"
            />
            <SuggestionList
              id={customersId}
              suggestions={[...customers].map(([value, label]) => ({ value, label }))}
            />
            <fieldset
              className="admin-roles"
              aria-invalid={roleErrors.length > 0 || undefined}
              aria-describedby={roleErrors.length > 0 ? `${rolesId}-roles` : undefined}
            >
              <legend>{t('people.addMembership.roles')}</legend>
              {PERSON_ROLES.map((role) => (
                <Checkbox
                  key={role}
                  label={t(`people.roles.${role}`)}
                  checked={roles.includes(role)}
                  onChange={(event) => toggle(role, event.target.checked)}
                />
              ))}
              {roleErrors.length > 0 ? (
                <ul id={`${rolesId}-roles`} className="hr-field__errors">
                  {roleErrors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              ) : null}
            </fieldset>
          </>
        ) : null}
        <ReasonField
          label={t('people.reason')}
          hint={t('people.reasonHint')}
          value={reason}
          onChange={setReason}
          errors={reasonErrors}
          required
          testId="person-reason"
        />
        <FormErrors messages={errors.form} />
        <DialogActions
          cancel={t('people.cancel')}
          confirm={t(`${key}.confirm`)}
          danger={danger}
          onCancel={onClose}
          busy={busy}
        />
      </Stack>
    </form>
  );
}
