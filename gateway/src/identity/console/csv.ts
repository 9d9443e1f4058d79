/**
 * A reader of RFC 4180 CSV, enough for the operator's onboarding files: comma-separated fields, fields in double
 * quotes may hold commas, line breaks and doubled quotes (`""`), lines end in CRLF or LF, a UTF-8 byte-order mark is
 * dropped. No package of the stack reads CSV, and this much is short enough to own (ADR 0009).
 */

/** One record of the file: its fields, and the line it starts on (1-based, as a spreadsheet numbers rows). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A file that is not CSV (an unterminated quote, text after a closing quote): where, and what. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
    /** The errors map's code of the reason (SPEC.md §4), for the console's page. */
    readonly code: 'importCsvUnclosedQuote' | 'importCsvTextAfterQuote' | 'importCsvQuoteInField',
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Splits CSV text into records; blank lines are skipped. */
export function parseCsv(text: string): CsvRecord[] {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  // The current field was quoted: then it exists even when empty (a line of `""` is not blank).
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    if (fields.length > 0 || field !== '' || quoted)
      records.push({ line: recordLine, fields: [...fields, field] });
    fields = [];
    field = '';
    quoted = false;
  };
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '"' && field === '' && !quoted) {
      // A quoted field: up to the closing quote, `""` being one quote.
      const startLine = line;
      quoted = true;
      i++;
      for (;;) {
        if (i >= input.length)
          throw new CsvSyntaxError(startLine, 'a quoted field is not closed', 'importCsvUnclosedQuote');
        const q = input[i]!;
        i++;
        if (q === '"') {
          if (input[i] !== '"') break;
          i++;
        } else if (q === '\n') line++;
        field += q;
      }
      const after = input[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r')
        throw new CsvSyntaxError(line, 'text after a closing quote', 'importCsvTextAfterQuote');
    } else if (c === ',') {
      fields.push(field);
      field = '';
      quoted = false;
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && input[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      if (c === '"' || quoted)
        throw new CsvSyntaxError(line, 'a quote inside an unquoted field', 'importCsvQuoteInField');
      field += c;
      i++;
    }
  }
  endRecord();
  return records;
}
