/**
 * The bulk import of customers and memberships, of `admin customers import FILE.csv` and the console's
 * `ImportCustomers` (issue 52, ADR 0063): bulk onboarding of customers and their members (ADR 0009). The whole file is
 * read and checked first, every bad row reported with its row number and reason; only a file without a bad row is
 * stored, in one transaction, so a file is never half-imported.
 *
 * Columns (a header row names them, in any order, case ignored): `id` and `name` required; `partner` (a partner id),
 * `username` (a user to make a member) and `roles` (the member's roles in that customer, separated by `;`, by name or
 * number; without them the user's own roles) optional. One row per customer, or several rows with the same id, name
 * and partner to add several members to it.
 */
import { parseRole, type RoleName } from '../../store/roles.js';
import type { Customer } from '../../store/customer.repository.js';
import type { Store } from '../../store/store.js';
import { CsvSyntaxError, parseCsv } from './csv.js';

const COLUMNS = ['id', 'name', 'partner', 'username', 'roles'] as const;
type Column = (typeof COLUMNS)[number];
/** Lengths the rest of the system accepts for a customer (the selection page, the `customer` claim). */
export const CUSTOMER_ID_MAX = 100;
export const CUSTOMER_NAME_MAX = 200;
/** How many bad rows the CLI lists before the rest is only counted. */
export const ERRORS_SHOWN = 50;

/** A customer of the file with the members its rows name. */
export type ImportedCustomer = Customer & { members: { userId: string; roles: RoleName[] }[] };

/** The outcome of checking a file: the customers to store, or the bad rows. */
export interface CheckedImport {
  customers: ImportedCustomer[];
  memberships: number;
  /** `row N: reason`, in file order. */
  errors: string[];
}

/** Reads and checks an import file against the store; stores nothing. */
export async function checkCustomerImport(store: Store, text: string): Promise<CheckedImport> {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      return { customers: [], memberships: 0, errors: [`row ${error.line}: ${error.reason}`] };
    throw error;
  }
  const [header, ...rows] = records;
  if (!header)
    return { customers: [], memberships: 0, errors: ['the file is empty (a header row is required)'] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const unknown = names.filter((n) => !(COLUMNS as readonly string[]).includes(n));
  const missing = (['id', 'name'] as const).filter((n) => !names.includes(n));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  const headerErrors = [
    ...unknown.map((n) => `row ${header.line}: unknown column "${n}" (columns: ${COLUMNS.join(', ')})`),
    ...missing.map((n) => `row ${header.line}: the column "${n}" is missing`),
    ...twice.map((n) => `row ${header.line}: the column "${n}" appears twice`),
  ];
  if (headerErrors.length > 0) return { customers: [], memberships: 0, errors: headerErrors };
  if (rows.length === 0)
    return { customers: [], memberships: 0, errors: ['the file has no rows under its header'] };

  const errors: string[] = [];
  const byId = new Map<string, ImportedCustomer & { line: number }>();
  const partners = new Map<string, boolean>();
  const users = new Map<string, { id: string; roles: RoleName[] } | null>();
  const existing = new Map<string, boolean>();
  let memberships = 0;

  for (const row of rows) {
    const fail = (reason: string) => errors.push(`row ${row.line}: ${reason}`);
    if (row.fields.length !== names.length) {
      fail(`${row.fields.length} fields, the header has ${names.length}`);
      continue;
    }
    const value = (column: Column) => {
      const index = names.indexOf(column);
      return index < 0 ? '' : row.fields[index]!.trim();
    };
    const id = value('id');
    const name = value('name');
    const partner = value('partner');
    const username = value('username');
    const roleText = value('roles');
    const problems: string[] = [];
    if (id === '') problems.push('id is empty');
    else if (id.length > CUSTOMER_ID_MAX) problems.push(`id is longer than ${CUSTOMER_ID_MAX} characters`);
    else if (/[\s\p{Cc}]/u.test(id)) problems.push(`id "${id}" holds a space or control character`);
    if (name === '') problems.push('name is empty');
    else if (name.length > CUSTOMER_NAME_MAX)
      problems.push(`name is longer than ${CUSTOMER_NAME_MAX} characters`);
    else if (/\p{Cc}/u.test(name)) problems.push('name holds a control character');
    if (partner !== '') {
      if (!partners.has(partner)) partners.set(partner, !!(await store.partners.findById(partner)));
      if (!partners.get(partner)) problems.push(`no partner "${partner}"`);
    }
    let user: { id: string; roles: RoleName[] } | null = null;
    if (username !== '') {
      if (!users.has(username)) {
        const found = await store.users.findByLogin(username);
        users.set(username, found ? { id: found.id, roles: found.roles } : null);
      }
      user = users.get(username) ?? null;
      if (!user) problems.push(`no user "${username}"`);
    } else if (roleText !== '') problems.push('roles are given without a username');
    let roles: RoleName[] | undefined;
    if (roleText !== '') {
      const texts = roleText
        .split(/[;,]/)
        .map((text) => text.trim())
        .filter(Boolean);
      const parsed = texts.map((text) => ({ text, role: parseRole(text) }));
      const bad = parsed.find((p) => !p.role);
      if (bad)
        problems.push(
          `unknown role "${bad.text}" (1–7 or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN)`,
        );
      else roles = parsed.map((p) => p.role!);
    }
    if (id !== '' && !existing.has(id)) existing.set(id, !!(await store.customers.findById(id)));
    if (id !== '' && existing.get(id)) problems.push(`customer "${id}" already exists`);
    const seen = id === '' ? undefined : byId.get(id);
    if (seen && (seen.name !== name || (seen.partnerId ?? '') !== partner))
      problems.push(`customer "${id}" has another name or partner in row ${seen.line}`);
    if (seen && user && seen.members.some((m) => m.userId === user.id))
      problems.push(`"${username}" is already a member of "${id}" in an earlier row`);
    if (seen && !user) problems.push(`customer "${id}" is already in row ${seen.line}`);
    if (problems.length > 0) {
      fail(problems.join('; '));
      continue;
    }
    const customer = seen ?? { id, name, partnerId: partner || null, members: [], line: row.line };
    byId.set(id, customer);
    if (user) {
      customer.members.push({ userId: user.id, roles: roles ?? user.roles });
      memberships++;
    }
  }
  return {
    customers: [...byId.values()].map(({ line: _line, ...customer }) => customer),
    memberships,
    errors,
  };
}

/** Stores a checked import without bad rows, in one transaction; `progress` hears how many customers are done. */
export async function storeCustomerImport(
  store: Store,
  checked: CheckedImport,
  progress?: (done: number) => void,
): Promise<void> {
  await store.customers.importAll(checked.customers, progress ?? (() => undefined));
}
