import { Router } from 'express';

/**
 * Customers (SPEC.md §7 "Customers"): SelectCustomerView, Customers, SelectCustomer.
 * Mounted in the account API after the sign-in gate; the area's calls register here as its flow ships, and
 * until then they answer the API's 404.
 */
export function customersRouter(): Router {
  return Router();
}
