/**
 * `admin customers import FILE.csv` (ADR 0009): the check and the store are the console's too
 * (`identity/console/customer-import.ts`); this prints the bad rows and the progress.
 */
import {
  checkCustomerImport,
  ERRORS_SHOWN,
  storeCustomerImport,
} from '../identity/console/customer-import.js';
import type { Store } from '../store/store.js';
import { UsageError } from './cli-support.js';

/** Checks and stores an import file; prints progress and the bad rows; throws when nothing was stored. */
export async function importCustomers(
  store: Store,
  text: string,
  out: (line: string) => void,
): Promise<void> {
  const checked = await checkCustomerImport(store, text);
  if (checked.errors.length > 0) {
    for (const error of checked.errors.slice(0, ERRORS_SHOWN)) out(error);
    if (checked.errors.length > ERRORS_SHOWN)
      out(`… and ${checked.errors.length - ERRORS_SHOWN} more bad rows`);
    throw new UsageError(
      `${checked.errors.length} bad ${checked.errors.length === 1 ? 'row' : 'rows'}; nothing was imported`,
    );
  }
  const total = checked.customers.length;
  let shownTenth = 0;
  await storeCustomerImport(store, checked, (done) => {
    // A line at each tenth, not one per batch: thousands of rows print about ten lines.
    const tenth = Math.floor((done * 10) / total);
    if (tenth > shownTenth || done === total) {
      shownTenth = tenth;
      out(`importing: ${done}/${total} customers`);
    }
  });
  out(
    `imported ${total} ${total === 1 ? 'customer' : 'customers'} and ${checked.memberships} ${checked.memberships === 1 ? 'membership' : 'memberships'}`,
  );
}
