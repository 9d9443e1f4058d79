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
import { formatErrorCode, type ErrorCode } from 'shared-contracts';
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

/**
 * One problem of a bad file: the CLI's English (`row N: reason`, several reasons of a row joined by `; `) and, for the
 * console, each reason as a code of the errors map with its values (SPEC.md §4: `code|{"row":3,…}`), which the page
 * shows in the reader's language.
 */
export interface CheckedImport {
  customers: ImportedCustomer[];
  memberships: number;
  /** `row N: reason`, in file order (the CLI's lines). */
  errors: string[];
  /** The same problems as codes with their values, in file order (the console's `csv` errors). */
  codes: string[];
}

/** A reason of a bad row: its English for the CLI and its code for the console. */
interface Problem {
  text: string;
  code: ErrorCode;
  values?: Record<string, string | number>;
}

/** A file refused as a whole (no header, no rows, a bad header or CSV syntax). */
function refused(line: number | null, problems: Problem[]): CheckedImport {
  return {
    customers: [],
    memberships: 0,
    errors: problems.map((p) => (line === null ? p.text : `row ${line}: ${p.text}`)),
    codes: problems.map((p) =>
      formatErrorCode(p.code, line === null ? p.values : { row: line, ...p.values }),
    ),
  };
}

/** Reads and checks an import file against the store; stores nothing. */
export async function checkCustomerImport(store: Store, text: string): Promise<CheckedImport> {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      return refused(error.line, [{ text: error.reason, code: error.code }]);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header)
    return refused(null, [{ text: 'the file is empty (a header row is required)', code: 'importEmpty' }]);
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const unknown = names.filter((n) => !(COLUMNS as readonly string[]).includes(n));
  const missing = (['id', 'name'] as const).filter((n) => !names.includes(n));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  const headerErrors: Problem[] = [
    ...unknown.map((column) => ({
      text: `unknown column "${column}" (columns: ${COLUMNS.join(', ')})`,
      code: 'importUnknownColumn' as const,
      values: { column },
    })),
    ...missing.map((column) => ({
      text: `the column "${column}" is missing`,
      code: 'importMissingColumn' as const,
      values: { column },
    })),
    ...twice.map((column) => ({
      text: `the column "${column}" appears twice`,
      code: 'importColumnTwice' as const,
      values: { column },
    })),
  ];
  if (headerErrors.length > 0) return refused(header.line, headerErrors);
  if (rows.length === 0)
    return refused(null, [{ text: 'the file has no rows under its header', code: 'importNoRows' }]);

  const errors: string[] = [];
  const codes: string[] = [];
  const byId = new Map<string, ImportedCustomer & { line: number }>();
  const partners = new Map<string, boolean>();
  const users = new Map<string, { id: string; roles: RoleName[] } | null>();
  const existing = new Map<string, boolean>();
  let memberships = 0;

  for (const row of rows) {
    const fail = (reasons: Problem[]) => {
      errors.push(`row ${row.line}: ${reasons.map((p) => p.text).join('; ')}`);
      for (const p of reasons) codes.push(formatErrorCode(p.code, { row: row.line, ...p.values }));
    };
    if (row.fields.length !== names.length) {
      fail([
        {
          text: `${row.fields.length} fields, the header has ${names.length}`,
          code: 'importFieldCount',
          values: { count: row.fields.length, expected: names.length },
        },
      ]);
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
    const problems: Problem[] = [];
    const problem = (text: string, code: ErrorCode, values?: Record<string, string | number>) =>
      problems.push({ text, code, ...(values ? { values } : {}) });
    if (id === '') problem('id is empty', 'importIdEmpty');
    else if (id.length > CUSTOMER_ID_MAX)
      problem(`id is longer than ${CUSTOMER_ID_MAX} characters`, 'importIdTooLong', { max: CUSTOMER_ID_MAX });
    else if (/[\s\p{Cc}]/u.test(id))
      problem(`id "${id}" holds a space or control character`, 'importIdCharacters', { id });
    if (name === '') problem('name is empty', 'importNameEmpty');
    else if (name.length > CUSTOMER_NAME_MAX)
      problem(`name is longer than ${CUSTOMER_NAME_MAX} characters`, 'importNameTooLong', {
        max: CUSTOMER_NAME_MAX,
      });
    else if (/\p{Cc}/u.test(name)) problem('name holds a control character', 'importNameCharacters');
    if (partner !== '') {
      if (!partners.has(partner)) partners.set(partner, !!(await store.partners.findById(partner)));
      if (!partners.get(partner)) problem(`no partner "${partner}"`, 'importUnknownPartner', { partner });
    }
    let user: { id: string; roles: RoleName[] } | null = null;
    if (username !== '') {
      if (!users.has(username)) {
        const found = await store.users.findByLogin(username);
        users.set(username, found ? { id: found.id, roles: found.roles } : null);
      }
      user = users.get(username) ?? null;
      if (!user) problem(`no user "${username}"`, 'importUnknownUser', { username });
    } else if (roleText !== '') problem('roles are given without a username', 'importRolesWithoutUser');
    let roles: RoleName[] | undefined;
    if (roleText !== '') {
      const texts = roleText
        .split(/[;,]/)
        .map((text) => text.trim())
        .filter(Boolean);
      const parsed = texts.map((text) => ({ text, role: parseRole(text) }));
      const bad = parsed.find((p) => !p.role);
      if (bad)
        problem(
          `unknown role "${bad.text}" (1–7 or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN)`,
          'importUnknownRole',
          { role: bad.text },
        );
      else roles = parsed.map((p) => p.role!);
    }
    if (id !== '' && !existing.has(id)) existing.set(id, !!(await store.customers.findById(id)));
    if (id !== '' && existing.get(id))
      problem(`customer "${id}" already exists`, 'importCustomerExists', { id });
    const seen = id === '' ? undefined : byId.get(id);
    if (seen && (seen.name !== name || (seen.partnerId ?? '') !== partner))
      problem(`customer "${id}" has another name or partner in row ${seen.line}`, 'importCustomerDiffers', {
        id,
        earlier: seen.line,
      });
    if (seen && user && seen.members.some((m) => m.userId === user.id))
      problem(`"${username}" is already a member of "${id}" in an earlier row`, 'importMemberTwice', {
        username,
        id,
      });
    if (seen && !user)
      problem(`customer "${id}" is already in row ${seen.line}`, 'importCustomerTwice', {
        id,
        earlier: seen.line,
      });
    if (problems.length > 0) {
      fail(problems);
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
    codes,
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
