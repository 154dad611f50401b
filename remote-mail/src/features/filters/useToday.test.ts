import { act, renderHook } from '@testing-library/react';
import { useToday } from './useToday';

describe('useToday', () => {
  afterEach(() => jest.useRealTimers());

  it('stays the same within a local day and moves on at midnight', () => {
    jest.useFakeTimers({ now: new Date(2026, 10, 22, 23, 58, 0) });
    const { result } = renderHook(() => useToday());
    const opened = result.current;
    act(() => jest.advanceTimersByTime(60_000));
    expect(result.current).toBe(opened);
    act(() => jest.advanceTimersByTime(60_000));
    expect(result.current.getDate()).toBe(23);
    const nextDay = result.current;
    act(() => jest.advanceTimersByTime(23 * 3_600_000));
    expect(result.current).toBe(nextDay);
    act(() => jest.advanceTimersByTime(3_600_000));
    expect(result.current.getDate()).toBe(24);
  });

  it('a sleep across midnight (the timer late): the day is checked again when the page is looked at', () => {
    jest.useFakeTimers({ now: new Date(2026, 10, 22, 18, 0, 0) });
    const { result } = renderHook(() => useToday());
    const opened = result.current;
    act(() => window.dispatchEvent(new Event('focus')));
    expect(result.current).toBe(opened); // the same day: nothing changes
    // Asleep: the clock jumps to the next morning while the timer has not fired.
    jest.setSystemTime(new Date(2026, 10, 23, 9, 0, 0));
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(result.current.getDate()).toBe(23);
  });
});
