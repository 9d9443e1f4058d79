/**
 * The form of a customer name (and of a typed filter) that search compares: compatibility-decomposed (NFKD), marks
 * removed, lower-cased, `ß` as `ss`, runs of white space as one space. "Zürich", "ZURICH" and "zurich" meet; the
 * database only compares plain text, so SQLite and PostgreSQL answer alike whatever their collation.
 */
export function customerSearchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A LIKE pattern that finds `filter` anywhere in a search key. `%`, `_` and the escape character are escaped, so a
 * typed `50%` or `a_b` is searched as text, never as a wildcard (used with `ESCAPE '\'`).
 */
export function containsPattern(filter: string): string {
  return `%${customerSearchKey(filter).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Digit runs longer than this keep their order among themselves only by text (no customer name has such numbers). */
const MAX_DIGITS = 99;

/**
 * The form of a customer name the user's list is ordered by (issue 43): its {@link customerSearchKey}, with every run
 * of digits written as its length (two digits) then the number without leading zeros, so comparing the keys as
 * plain bytes puts "Branch 2" before "Branch 10" (`branch 012` < `branch 0210`) while case and accents are ignored
 * as the search ignores them. Plain bytes compare alike on SQLite (BINARY) and PostgreSQL (`COLLATE "C"`), so the
 * order, and so the pages, are the same on both.
 */
export function customerSortKey(name: string): string {
  return customerSearchKey(name).replace(/[0-9]+/g, (run) => {
    const digits = run.replace(/^0+(?=[0-9])/, '');
    return `${String(Math.min(digits.length, MAX_DIGITS)).padStart(2, '0')}${digits}`;
  });
}
