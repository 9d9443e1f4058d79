import { describe, expect, it } from 'vitest';
import { formatIsoDate, mondayFirstWeekdayNames, monthWeeks, parseIsoDate } from './calendar.js';

describe('calendar (SPEC.md §5: the week starts on Monday)', () => {
  it('lays out a month with Monday in the first column', () => {
    // 1 November 2026 is a Sunday: six empty cells, then the 1st in the last column.
    const weeks = monthWeeks(2026, 11);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, 1]);
    expect(weeks[1]?.[0]).toBe(2);
    expect(weeks.flat().filter((d) => d !== null)).toHaveLength(30);
  });

  it('names the weekdays Monday first', () => {
    expect(mondayFirstWeekdayNames('en-GB')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(mondayFirstWeekdayNames('de')[0]).toBe('Mo');
  });

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['24-1-1', false],
  ])('parses %s: %s', (text, valid) => {
    const parsed = parseIsoDate(text);
    expect(Boolean(parsed)).toBe(valid);
    if (parsed) expect(formatIsoDate(parsed)).toBe(text);
  });
});
