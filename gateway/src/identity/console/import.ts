import type { Clock } from '../../infra/clock.js';
import type { Store } from '../../store/store.js';
import type { ConsoleActor } from './console-actor.js';
import { checkCustomerImport, storeCustomerImport } from './customer-import.js';

/** An import's outcome: stored, or every bad row's reasons as codes of the errors map, and nothing stored. */
export type ConsoleImportOutcome =
  { kind: 'imported'; customers: number; memberships: number } | { kind: 'bad'; errors: string[] };

/**
 * The console's bulk import (issue 52, ADR 0063): the CLI's check and store (all or nothing), audited as
 * `console.import.customers` with the console's shape (subject: how many customers and memberships).
 */
export function createConsoleImportService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  return {
    async importCustomers(
      csv: string,
      actor: ConsoleActor,
      reason: string | null,
    ): Promise<ConsoleImportOutcome> {
      const checked = await checkCustomerImport(store, csv);
      if (checked.codes.length > 0) return { kind: 'bad', errors: checked.codes };
      await storeCustomerImport(store, checked);
      const customers = checked.customers.length;
      await store.audit.record({
        at: clock.now(),
        kind: 'console.import.customers',
        userId: actor.userId,
        ip: null,
        data: {
          actor: actor.name,
          subject: `${customers} customers, ${checked.memberships} memberships`,
          reason,
          customerIds: checked.customers.slice(0, 100).map((c) => c.id),
        },
      });
      return { kind: 'imported', customers, memberships: checked.memberships };
    },
  };
}

/** The console's bulk import. */
export type ConsoleImportService = ReturnType<typeof createConsoleImportService>;
