// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecurityCentreView } from 'shared-contracts';
import { renderWithProviders, stubGateway } from 'shared-contracts/testing';
import enGB from './locales/en-GB.json';
import { SECURITY_CENTRE_NS } from './security-centre-strings';
import { TwoStepSection } from './two-step';

afterEach(cleanup);

/** A view with only what the section reads filled in. */
function viewWith(methods: SecurityCentreView['twoStep']['methods'], required = false): SecurityCentreView {
  return { twoStep: { methods, required } } as unknown as SecurityCentreView;
}

const BOTH: SecurityCentreView['twoStep']['methods'] = [
  { method: 'authenticator', isDefault: true },
  { method: 'sms', isDefault: false, detail: '•••• 123' },
];

async function render(view: SecurityCentreView, gateway = stubGateway({})) {
  await renderWithProviders(<TwoStepSection view={view} />, {
    resources: { 'en-GB': { [SECURITY_CENTRE_NS]: enGB } },
    defaultNS: SECURITY_CENTRE_NS,
    fetch: gateway.fetch,
  });
  return gateway;
}

const changes = (gateway: ReturnType<typeof stubGateway>) =>
  gateway.calls.filter((c) => c.call === 'RemoveTwoStepMethod' || c.call === 'SetDefaultTwoStepMethod');

describe('two-step verification in the security centre', () => {
  it('asks before removing a method, naming it; Cancel removes nothing', async () => {
    const gateway = await render(
      viewWith(BOTH),
      stubGateway({ RemoveTwoStepMethod: () => Response.json({}) }),
    );
    const remove = screen.getByRole('button', { name: 'Remove Text message (SMS)' });
    // Destructive, and styled apart from the neutral "Make … the default".
    expect(remove.className).toContain('hr-button--danger-outline');
    expect(
      screen.getByRole('button', { name: 'Make Text message (SMS) the default' }).className,
    ).not.toContain('danger');
    fireEvent.click(remove);
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove Text message (SMS)?' });
    expect(dialog.textContent).toContain('Your other methods and your recovery codes stay as they are.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(changes(gateway)).toEqual([]);

    fireEvent.click(remove);
    dialog = await screen.findByRole('alertdialog', { name: 'Remove Text message (SMS)?' });
    const confirm = within(dialog).getByRole('button', { name: 'Remove Text message (SMS)' });
    expect(confirm.className).toContain('hr-button--danger');
    fireEvent.click(confirm);
    await waitFor(() => expect(changes(gateway).map((c) => c.body)).toEqual([{ method: 'sms' }]));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('says that removing the last method turns two-step verification off and deletes the recovery codes', async () => {
    await render(viewWith([{ method: 'authenticator', isDefault: true }]));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Authenticator app' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Authenticator app?' });
    expect(dialog.textContent).toContain('two-step verification will be turned off');
  });

  it('offers no removal of the only method where two-step verification is required, and says why', async () => {
    await render(viewWith([{ method: 'authenticator', isDefault: true }], true));
    expect(screen.queryByRole('button', { name: 'Remove Authenticator app' })).toBeNull();
    expect(screen.getByText(/add another method before you remove this one/)).toBeTruthy();
  });

  it('makes a method the default at once (no confirmation: nothing is lost) and says what the default does', async () => {
    const gateway = await render(
      viewWith(BOTH),
      stubGateway({ SetDefaultTwoStepMethod: () => Response.json({}) }),
    );
    expect(screen.getByText(/Sign-in asks for your default method first/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Make Text message (SMS) the default' }));
    await waitFor(() => expect(changes(gateway).map((c) => c.body)).toEqual([{ method: 'sms' }]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
