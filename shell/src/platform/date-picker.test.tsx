// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatePicker } from './date-picker.js';
import { renderWithPlatform } from './testing/platform-harness.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('date picker (SPEC.md §5)', () => {
  it('updates 300 ms after typing stops, not before', async () => {
    const onChange = vi.fn();
    await renderWithPlatform(<DatePicker label="Start date" value="" onChange={onChange} />);
    vi.useFakeTimers();
    const input = screen.getByLabelText('Start date', { selector: 'input' });
    fireEvent.change(input, { target: { value: '2024-03-0' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    fireEvent.change(input, { target: { value: '2024-03-04' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(299);
    });
    expect(onChange).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('2024-03-04');
  });

  it('shows Monday in the first column and refuses dates before 1901-01-01', async () => {
    const onChange = vi.fn();
    await renderWithPlatform(<DatePicker label="Birth date" value="2024-03-04" onChange={onChange} />);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers[0]).toBe('Mon');
    expect(headers[6]).toBe('Sun');
    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText('Birth date', { selector: 'input' }), {
      target: { value: '1900-12-31' },
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(onChange).not.toHaveBeenCalled();
  });
});
