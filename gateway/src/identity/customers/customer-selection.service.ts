import type { Clock } from '../../infra/clock.js';
import type { Session } from '../../infra/sessions/session-manager.js';
import type { Browser, SessionWriter } from '../browser.js';
import type { SignInOutcome, SignInService } from '../sign-in/sign-in.service.js';
import { customerSelectionStep } from './customer-selection.step.js';
import type { CustomersService } from './customers.service.js';

/** Who is choosing: a sign-in waiting at the customer step, or a signed-in account switching customer. */
export interface Chooser {
  session: Session;
  userId: string;
  duringSignIn: boolean;
}

/** What `SelectCustomer` leads to; the HTTP layer answers 400, the sign-in's next 209, or a 209 to the returnUrl. */
export type SelectionOutcome =
  { kind: 'refused' } | { kind: 'signIn'; outcome: SignInOutcome } | { kind: 'switched'; session: Session };

/**
 * `SelectCustomer` (ADR 0009): the chosen customer goes into the session (and from there into the tokens). During a
 * sign-in it completes the customer-selection step first, so the choice lands in the signed-in session the step
 * produced; a signed-in account switching customer keeps its session.
 */
export function createCustomerSelection(deps: {
  customers: Pick<CustomersService, 'choose'>;
  signIn: Pick<SignInService, 'completeStep'>;
  sessions: SessionWriter;
  /**
   * The clock the choice is stamped with. The OIDC side compares the stamp with oidc-provider's own stamp of the
   * authorization (`iat`, `oidc/interaction.router.ts`), which is the system clock's: pass `systemClock`.
   */
  selectionClock: Clock;
}) {
  return {
    async select(browser: Browser, who: Chooser, customerId: string): Promise<SelectionOutcome> {
      // The same answer for a customer that does not exist and one of somebody else's: no hint either way (S37).
      const chosen = await deps.customers.choose(who.userId, customerId);
      if (!chosen) return { kind: 'refused' };
      const selectedAt = Math.floor(deps.selectionClock.now() / 1000);
      if (who.duringSignIn) {
        const outcome = await deps.signIn.completeStep(browser, who.session, customerSelectionStep.id);
        const account = outcome.kind === 'redirect' ? outcome.session.record.data.account : undefined;
        if (outcome.kind === 'redirect' && account) {
          account.customerId = chosen.id;
          account.customerSelectedAt = selectedAt;
          await deps.sessions.save(outcome.session);
        }
        return { kind: 'signIn', outcome };
      }
      const account = who.session.record.data.account!;
      account.customerId = chosen.id;
      account.customerSelectedAt = selectedAt;
      await deps.sessions.save(who.session);
      return { kind: 'switched', session: who.session };
    },
  };
}

/** The customer-selection service. */
export type CustomerSelection = ReturnType<typeof createCustomerSelection>;
