import { LOG_LIMITS } from '@qc/contracts';
import {
  isSplit,
  periodIncludesNow,
  readLogFilters,
  toSearchRange,
  windowOf,
  WINDOW_DAYS,
  writeLogFilters,
} from './logs.filters';

const NOW = new Date(2026, 10, 20, 15, 0, 0);

describe('logs filters', () => {
  it('read what the URL says, dropping what is invalid', () => {
    const f = readLogFilters(
      new URLSearchParams('q= relay &severity=error,bogus,warn,WARN&hostname=mx1&period=last_7_days'),
    );
    expect(f).toEqual({
      q: 'relay',
      severity: ['WARN', 'ERROR'],
      hostname: 'mx1',
      period: 'last_7_days',
      from: '',
      to: '',
    });
    expect(readLogFilters(new URLSearchParams('period=custom&from=2026-02-30&to=2026-03-01')).period).toBe('');
    expect(readLogFilters(new URLSearchParams('period=forever')).period).toBe('');
  });

  it('write and read back the same filters', () => {
    const f = readLogFilters(new URLSearchParams('severity=INFO,NOTICE&period=custom&from=2026-10-01&to=2026-11-15'));
    expect(writeLogFilters(f).toString()).toBe('severity=INFO%2CNOTICE&period=custom&from=2026-10-01&to=2026-11-15');
    expect(readLogFilters(writeLogFilters(f))).toEqual(f);
  });

  it('a 90-day period is searched in windows the api accepts, newest first, covering it whole', () => {
    const range = toSearchRange(readLogFilters(new URLSearchParams('period=last_90_days')), NOW)!;
    expect(isSplit(range)).toBe(true);
    let to = range.to;
    const windows = [];
    while (to >= range.from) {
      const w = windowOf(range, to);
      expect(Date.parse(w.date_to) - Date.parse(w.date_from)).toBeLessThanOrEqual(LOG_LIMITS.searchDays * 86_400_000);
      windows.push(w);
      to = w.from - 1;
    }
    expect(windows).toHaveLength(Math.ceil(90 / WINDOW_DAYS));
    expect(Date.parse(windows.at(-1)!.date_from)).toBe(range.from);
    expect(isSplit(toSearchRange(readLogFilters(new URLSearchParams('period=last_30_days')), NOW))).toBe(false);
  });

  it('live tail only for a period that includes now', () => {
    const of = (qs: string) => periodIncludesNow(readLogFilters(new URLSearchParams(qs)), NOW);
    expect(of('')).toBe(true);
    expect(of('period=today')).toBe(true);
    expect(of('period=yesterday')).toBe(false);
    expect(of('period=custom&from=2026-11-01&to=2026-11-10')).toBe(false);
  });
});
