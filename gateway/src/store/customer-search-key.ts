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
