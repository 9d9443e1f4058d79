import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads fields, quoted commas, doubled quotes and line breaks in quotes, CRLF or LF', () => {
    expect(parseCsv('\uFEFFid,name\r\nc1,"Müller, Söhne ""&"" Co"\nc2,"two\nlines"\n')).toEqual([
      { line: 1, fields: ['id', 'name'] },
      { line: 2, fields: ['c1', 'Müller, Söhne "&" Co'] },
      { line: 3, fields: ['c2', 'two\nlines'] },
    ]);
  });

  it('skips blank lines but keeps empty fields and a line of ""', () => {
    expect(parseCsv('a,b\n\n,\n""\nx,')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['', ''] },
      { line: 4, fields: [''] },
      { line: 5, fields: ['x', ''] },
    ]);
  });

  it.each([
    ['a,"b\nc', 1, 'a quoted field is not closed'],
    ['a\n"b"c,d', 2, 'text after a closing quote'],
    ['a\nb"c', 2, 'a quote inside an unquoted field'],
  ])('refuses %j at line %i: %s', (text, line, reason) => {
    let error: unknown;
    try {
      parseCsv(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).message).toBe(`line ${line}: ${reason}`);
  });
});
