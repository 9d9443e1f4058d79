import { defineStep, StepId } from '../sign-in/sign-in-step.js';

/** More than one customer → choose one; the choice goes into the session and the tokens (ADR 0009). */
export const customerSelectionStep = defineStep({
  id: StepId.customerSelection,
  path: '/account/select',
  appliesTo: async ({ user, facts }) => (await facts.customerCount(user.id)) > 1,
  calls: ['SelectCustomerView', 'Customers', 'SelectCustomer'],
});
