import { z } from 'zod/mini';

/** Customers per page when the query names no size (SPEC.md §9: default page size 5, default page 1). */
export const CUSTOMER_PAGE_SIZE_DEFAULT = 5;
/** The largest page the `Customers` call answers; a bigger size is refused (400), not silently shrunk. */
export const CUSTOMER_PAGE_SIZE_MAX = 50;
/** Longest search text; a filter is typed by a person, anything longer is refused before any work. */
export const CUSTOMER_FILTER_MAX = 100;
/** Highest page number: far past any real list (the answer is then an empty page with the total), but bounded. */
export const CUSTOMER_PAGE_MAX = 2_147_483_647;

/** A query value as typed in a URL: a whole number within bounds, else the field's `invalidValue`. */
function wholeNumber(min: number, max: number, fallback: number) {
  return z.pipe(
    z.optional(
      z.pipe(
        z.pipe(
          z.string().check(z.maxLength(12, 'invalidValue'), z.regex(/^[0-9]+$/, 'invalidValue')),
          z.transform(Number),
        ),
        z.number().check(z.int(), z.minimum(min, 'invalidValue'), z.maximum(max, 'invalidValue')),
      ),
    ),
    z.transform((n) => n ?? fallback),
  );
}

/** Query of `SelectCustomerView` (SPEC.md §2: cid and returnUrl on customer selection). */
export const selectCustomerViewQuerySchema = z.object({
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
  /** An application may ask for a customer; it is preselected only when the user belongs to it. */
  cid: z.optional(z.string().check(z.maxLength(200))),
});

/** A customer as the selection page lists it. */
export const customerSummarySchema = z.object({ id: z.string(), name: z.string() });
/** A customer as the selection page lists it. */
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

/** Answer of `SelectCustomerView`: what the page needs before its first search. */
export const selectCustomerViewSchema = z.object({
  /** The customer to mark as chosen: `cid` when the user belongs to it, else the one chosen in this session. */
  preselected: z.nullable(customerSummarySchema),
  /** How many customers the user belongs to. */
  total: z.number(),
  /** The returnUrl after the server's safety check. */
  returnUrl: z.string(),
});
/** Answer of `SelectCustomerView`. */
export type SelectCustomerView = z.infer<typeof selectCustomerViewSchema>;

/**
 * Query of `Customers` (SPEC.md §3 "Customers list request": filter, page, size, returnUrl). Page counts from 1;
 * size is 1 … {@link CUSTOMER_PAGE_SIZE_MAX}. The filter is plain text: `%` and `_` are searched as themselves.
 */
export const customersQuerySchema = z.object({
  filter: z.optional(z.string().check(z.maxLength(CUSTOMER_FILTER_MAX, 'invalidValue'))),
  page: wholeNumber(1, CUSTOMER_PAGE_MAX, 1),
  size: wholeNumber(1, CUSTOMER_PAGE_SIZE_MAX, CUSTOMER_PAGE_SIZE_DEFAULT),
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});

/** Answer of `Customers`: one page of the user's customers matching the filter, and how many match in all. */
export const customersPageSchema = z.object({
  customers: z.array(customerSummarySchema),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
/** Answer of `Customers`. */
export type CustomersPage = z.infer<typeof customersPageSchema>;

/** Body of `SelectCustomer`: the chosen customer's id (only a customer the user belongs to is accepted: S37). */
export const selectCustomerRequestSchema = z.object({
  customerId: z
    .string('required')
    .check(z.trim(), z.minLength(1, 'required'), z.maxLength(200, 'invalidValue')),
  returnUrl: z.optional(z.string().check(z.maxLength(2048))),
});
/** Body of `SelectCustomer` as sent. */
export type SelectCustomerRequest = z.input<typeof selectCustomerRequestSchema>;

/** The `customer` claim of ID tokens and userinfo: the customer the user chose to work in. */
export interface CustomerClaim {
  id: string;
  name: string;
}
