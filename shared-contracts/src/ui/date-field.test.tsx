// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATE_FLOORS, DATE_PICKER_DEBOUNCE_MS } from '../constants.js';
import { DateField, formatDay, monthWeeks, parseDay, type DateFieldStrings } from './date-field.js';

const strings: DateFieldStrings = {
  chooseDate: 'Choose a date',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  hint: (example) => `For example ${example}`,
  invalid: (example) => `Enter a real date, for example ${example}.`,
  tooEarly: (date) => `Enter a date on or after ${date}.`,
  tooLate: (date) => `Enter a date on or before ${date}.`,
};

function renderField(props: Partial<Parameters<typeof DateField>[0]> = {}) {
  const onChange = vi.fn();
  const view = render(
    <DateField label="From" value="" onChange={onChange} locale="en-GB" strings={strings} {...props} />,
  );
  return { onChange, input: screen.getByLabelText('From'), ...view };
}

afterEach(cleanup);

describe('DateField: typing (SPEC.md §5, 300 ms debounce)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a typed date 300 ms after the last keystroke, not before, and once', () => {
    const { onChange, input } = renderField();
    fireEvent.change(input, { target: { value: '03/02/202' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS - 1);
    });
    fireEvent.change(input, { target: { value: '03/02/2025' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS - 1);
    });
    expect(onChange).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('2025-02-03');
    expect(DATE_PICKER_DEBOUNCE_MS).toBe(300);
  });

  it("reads the locale's order: 02/03/2025 is 3 February in en, 2 March in en-GB; ISO anywhere", () => {
    expect(parseDay('02/03/2025', 'en')).toBe('2025-02-03');
    expect(parseDay('02/03/2025', 'en-GB')).toBe('2025-03-02');
    expect(parseDay('2.3.2025', 'de')).toBe('2025-03-02');
    expect(parseDay('2025-03-02', 'de')).toBe('2025-03-02');
    expect(parseDay('31/02/2025', 'en-GB')).toBeUndefined();
    expect(parseDay('02/03/25', 'en-GB')).toBeUndefined();
    expect(parseDay('  ', 'en-GB')).toBe('');
    expect(formatDay('2025-03-02', 'de')).toBe('02.03.2025');
    expect(formatDay('2025-03-02', 'fr-CA')).toBe('2025-03-02');
    expect(formatDay('0001-01-01', 'en-GB')).toBe('01/01/0001');
  });

  it('shows an error for a day that is not real and changes nothing', () => {
    const { onChange, input } = renderField();
    fireEvent.change(input, { target: { value: '30/02/2025' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS);
    });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toMatch(/^Enter a real date/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a day before the floor 1901-01-01 by default, and before 0001-01-01 whatever min says', () => {
    const { onChange, input } = renderField();
    fireEvent.change(input, { target: { value: '31/12/1900' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS);
    });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Enter a date on or after 01/01/1901.');
    fireEvent.change(input, { target: { value: '01/01/1901' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS);
    });
    expect(onChange).toHaveBeenCalledWith(DATE_FLOORS.default);
    cleanup();

    const old = renderField({ min: '0000-06-01' });
    fireEvent.change(old.input, { target: { value: '01/01/0001' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS);
    });
    expect(old.onChange).toHaveBeenCalledWith(DATE_FLOORS.absolute);
  });

  it('clears to empty', () => {
    const { onChange, input } = renderField({ value: '2025-01-02' });
    expect((input as HTMLInputElement).value).toBe('02/01/2025');
    fireEvent.change(input, { target: { value: '' } });
    act(() => {
      vi.advanceTimersByTime(DATE_PICKER_DEBOUNCE_MS);
    });
    expect(onChange).toHaveBeenCalledWith('');
  });
});

describe('DateField: the calendar', () => {
  it('starts its weeks on Monday', () => {
    // 1 June 2025 is a Sunday: its week starts on Monday 26 May.
    const weeks = monthWeeks(2025, 5);
    expect(weeks[0]![0]!.toISOString().slice(0, 10)).toBe('2025-05-26');
    expect(weeks.every((week) => week[0]!.getUTCDay() === 1)).toBe(true);

    renderField({ value: '2025-06-15' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose a date' }));
    const grid = screen.getByRole('grid');
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.getAttribute('abbr'))).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(within(grid).getAllByRole('row')[1]!.querySelector('button')!.dataset.day).toBe('2025-05-26');
  });

  it('is used with the keyboard: focus on the chosen day, arrows and Page Down move, Enter picks', () => {
    const { onChange } = renderField({ value: '2025-06-15' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose a date' }));
    const grid = screen.getByRole('grid');
    expect((document.activeElement as HTMLElement).dataset.day).toBe('2025-06-15');
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe('2025-06-23');
    fireEvent.keyDown(grid, { key: 'Home' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe('2025-06-23');
    fireEvent.keyDown(grid, { key: 'End' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe('2025-06-29');
    fireEvent.keyDown(grid, { key: 'PageDown' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe('2025-07-29');
    fireEvent.click(document.activeElement!);
    expect(onChange).toHaveBeenCalledWith('2025-07-29');
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('29/07/2025');
  });

  it('mirrors the arrow keys right to left: → goes to the day before, ← to the day after', () => {
    const onChange = vi.fn();
    render(
      <div dir="rtl">
        <DateField label="From" value="2025-06-15" onChange={onChange} locale="en-GB" strings={strings} />
      </div>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Choose a date' }));
    const grid = screen.getByRole('grid');
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    expect(document.activeElement!.getAttribute('data-day')).toBe('2025-06-14');
    fireEvent.keyDown(grid, { key: 'ArrowLeft' });
    fireEvent.keyDown(grid, { key: 'ArrowLeft' });
    expect(document.activeElement!.getAttribute('data-day')).toBe('2025-06-16');
  });

  it('Escape closes it and gives focus back to its button', () => {
    renderField();
    const toggle = screen.getByRole('button', { name: 'Choose a date' });
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('grid'), { key: 'Escape' });
    expect(screen.queryByRole('grid')).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('offers nothing before the floor: earlier days disabled, no earlier month, the keyboard stops there', () => {
    renderField({ value: '1901-01-02' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose a date' }));
    const grid = screen.getByRole('grid');
    expect(screen.getByRole('button', { name: 'Previous month' }).hasAttribute('disabled')).toBe(true);
    const dec31 = grid.querySelector<HTMLButtonElement>('[data-day="1900-12-31"]')!;
    expect(dec31.disabled).toBe(true);
    fireEvent.keyDown(grid, { key: 'ArrowUp' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe(DATE_FLOORS.default);
    fireEvent.keyDown(grid, { key: 'PageUp' });
    expect((document.activeElement as HTMLElement).dataset.day).toBe(DATE_FLOORS.default);
  });

  it('names its month and days in the locale', () => {
    renderField({ value: '2025-06-15', locale: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose a date' }));
    expect(screen.getByRole('grid').getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByText('Juni 2025')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sonntag, 15. Juni 2025' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader')[0]!.getAttribute('abbr')).toBe('Montag');
  });
});
