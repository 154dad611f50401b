import {
  isDatePreset,
  localDaysRange,
  parseLocalDay,
  presetRange,
  toIsoWithOffset,
  toLocalDay,
  type DatePreset,
} from './date-range';

// Whatever the machine's time zone, bounds are checked with LOCAL getters, and the ISO strings
// must name the same instant as the Date they come from.
const NOW = new Date(2026, 10, 21, 15, 42, 7, 123); // 21 Nov 2026, 15:42 local

function local(d: Date) {
  return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
}

test('the web tests run in Europe/Paris (a zone with summer time), for Date and Intl alike', () => {
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Europe/Paris');
  expect([new Date(2026, 0, 15).getTimezoneOffset(), new Date(2026, 6, 15).getTimezoneOffset()]).toEqual([-60, -120]);
});

describe('date presets (spec §9), in local time', () => {
  it.each<[DatePreset, number[], number[]]>([
    ['today', [2026, 11, 21, 0, 0, 0], [2026, 11, 21, 23, 59, 59]],
    ['yesterday', [2026, 11, 20, 0, 0, 0], [2026, 11, 20, 23, 59, 59]],
    ['last_2_days', [2026, 11, 20, 0, 0, 0], [2026, 11, 21, 23, 59, 59]],
    ['last_7_days', [2026, 11, 15, 0, 0, 0], [2026, 11, 21, 23, 59, 59]],
    ['last_30_days', [2026, 10, 23, 0, 0, 0], [2026, 11, 21, 23, 59, 59]],
    ['last_90_days', [2026, 8, 24, 0, 0, 0], [2026, 11, 21, 23, 59, 59]],
  ])('%s', (preset, from, to) => {
    const range = presetRange(preset, NOW);
    expect(local(range.from)).toEqual(from);
    expect(local(range.to)).toEqual(to);
    expect(range.to.getMilliseconds()).toBe(999);
  });

  it('counts calendar days, not 24 h blocks (a range across a DST change still starts at midnight)', () => {
    // 90 days before 21 Nov crosses the end of summer time in zones that have one.
    const { from } = presetRange('last_90_days', NOW);
    expect([from.getHours(), from.getMinutes()]).toEqual([0, 0]);
    const spring = presetRange('last_7_days', new Date(2026, 3, 2, 12)); // 2 Apr: crosses late-March DST
    expect(local(spring.from)).toEqual([2026, 3, 27, 0, 0, 0]);
  });

  it('custom ranges of local days, inclusive, in either order; invalid days are refused', () => {
    const r = localDaysRange('2026-11-20', '2026-11-01')!;
    expect(local(r.from)).toEqual([2026, 11, 1, 0, 0, 0]);
    expect(local(r.to)).toEqual([2026, 11, 20, 23, 59, 59]);
    expect(localDaysRange('2026-02-30', '2026-03-01')).toBeNull();
    expect(localDaysRange('yesterday', '2026-03-01')).toBeNull();
    expect(parseLocalDay('2026-13-01')).toBeNull();
    expect(toLocalDay(parseLocalDay('2026-01-05')!)).toBe('2026-01-05');
    expect(isDatePreset('last_7_days')).toBe(true);
    expect(isDatePreset('last_8_days')).toBe(false);
  });
});

describe('ISO 8601 with offset', () => {
  it('formats the wall time of the given offset, never UTC "Z"', () => {
    const instant = new Date('2026-03-29T01:30:00.000Z');
    expect(toIsoWithOffset(instant, 120)).toBe('2026-03-29T03:30:00.000+02:00');
    expect(toIsoWithOffset(instant, 60)).toBe('2026-03-29T02:30:00.000+01:00');
    expect(toIsoWithOffset(instant, -330)).toBe('2026-03-28T20:00:00.000-05:30');
    expect(toIsoWithOffset(instant, 0)).toBe('2026-03-29T01:30:00.000+00:00');
  });

  it('with the local offset, names the same instant and keeps the local day', () => {
    const { from, to } = presetRange('today', NOW);
    for (const d of [from, to, NOW]) {
      const iso = toIsoWithOffset(d);
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
      expect(new Date(iso).getTime()).toBe(d.getTime());
    }
    expect(toIsoWithOffset(from).slice(0, 19)).toBe('2026-11-21T00:00:00');
    expect(toIsoWithOffset(to).slice(0, 23)).toBe('2026-11-21T23:59:59.999');
  });
});
