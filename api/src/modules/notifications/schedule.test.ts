import { currentPeriodStart, digestPeriods, schedulePattern, type DigestSchedule } from './schedule';

// Periods on the user's wall clock, on fake clocks, across the 2026 DST changes: Europe/Paris goes
// to summer time on Sunday 29 March (02:00 → 03:00) and back on Sunday 25 October; America/New_York
// on Sunday 8 March and back on Sunday 1 November.

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
const periods = (s: DigestSchedule, now: string) => {
  const p = digestPeriods(s, at(now));
  return p && { current: iso(p.current), previous: iso(p.previous), next: iso(p.next) };
};
const paris = (frequency: DigestSchedule['frequency'], send_time = '08:00'): DigestSchedule => ({
  frequency,
  send_time,
  time_zone: 'Europe/Paris',
});
const newYork = (frequency: DigestSchedule['frequency'], send_time = '08:00'): DigestSchedule => ({
  frequency,
  send_time,
  time_zone: 'America/New_York',
});

test('patterns: daily at the time, weekly on Mondays, monthly on the 1st; never has none', () => {
  expect(schedulePattern({ frequency: 'daily', send_time: '08:05' })).toBe('5 8 * * *');
  expect(schedulePattern({ frequency: 'weekly', send_time: '23:59' })).toBe('59 23 * * 1');
  expect(schedulePattern({ frequency: 'monthly', send_time: '00:00' })).toBe('0 0 1 * *');
  expect(schedulePattern({ frequency: 'never', send_time: '08:00' })).toBeNull();
  expect(schedulePattern({ frequency: 'daily', send_time: '24:00' })).toBeNull();
});

test('daily in Paris: 08:00 CET is 07:00 UTC, 08:00 CEST 06:00 UTC; the boundary itself starts the period', () => {
  // Saturday before the change, Sunday of the change (a 23-hour period), the day after.
  expect(periods(paris('daily'), '2026-03-29T05:59:59.999Z')).toEqual({
    current: '2026-03-28T07:00:00.000Z',
    previous: '2026-03-27T07:00:00.000Z',
    next: '2026-03-29T06:00:00.000Z',
  });
  expect(periods(paris('daily'), '2026-03-29T06:00:00.000Z')).toEqual({
    current: '2026-03-29T06:00:00.000Z',
    previous: '2026-03-28T07:00:00.000Z',
    next: '2026-03-30T06:00:00.000Z',
  });
  // Back to winter time: the period from 25 October is 25 hours long.
  expect(periods(paris('daily'), '2026-10-26T06:30:00Z')).toEqual({
    current: '2026-10-25T07:00:00.000Z',
    previous: '2026-10-24T06:00:00.000Z',
    next: '2026-10-26T07:00:00.000Z',
  });
});

test('daily in New York across its own change (three weeks before Paris)', () => {
  expect(periods(newYork('daily'), '2026-03-08T11:59:59Z')?.current).toBe('2026-03-07T13:00:00.000Z');
  expect(periods(newYork('daily'), '2026-03-08T12:00:00Z')).toEqual({
    current: '2026-03-08T12:00:00.000Z', // 08:00 EDT
    previous: '2026-03-07T13:00:00.000Z', // 08:00 EST
    next: '2026-03-09T12:00:00.000Z',
  });
  // The same instant is another day's period in the other zone.
  expect(periods(paris('daily'), '2026-03-08T12:00:00Z')?.current).toBe('2026-03-08T07:00:00.000Z');
});

test('a send time inside the spring gap runs once that day, right after it; one inside the repeated hour once', () => {
  // 02:30 does not exist in Paris on 29 March: that day's run is 03:00 CEST (01:00 UTC).
  expect(periods(paris('daily', '02:30'), '2026-03-29T12:00:00Z')).toEqual({
    current: '2026-03-29T01:00:00.000Z',
    previous: '2026-03-28T01:30:00.000Z',
    next: '2026-03-30T00:30:00.000Z',
  });
  // 02:30 happens twice on 25 October: the first one only.
  expect(periods(paris('daily', '02:30'), '2026-10-25T23:00:00Z')?.current).toBe('2026-10-25T00:30:00.000Z');
});

test('weekly: Mondays at the send time, in each zone, across the change', () => {
  // Paris: Monday 23 March 08:00 CET, Monday 30 March 08:00 CEST.
  expect(periods(paris('weekly'), '2026-03-30T05:59:00Z')?.current).toBe('2026-03-23T07:00:00.000Z');
  expect(periods(paris('weekly'), '2026-03-30T06:00:00Z')).toEqual({
    current: '2026-03-30T06:00:00.000Z',
    previous: '2026-03-23T07:00:00.000Z',
    next: '2026-04-06T06:00:00.000Z',
  });
  // New York: Monday 2 March 08:00 EST, Monday 9 March 08:00 EDT.
  expect(periods(newYork('weekly'), '2026-03-09T12:00:00Z')).toEqual({
    current: '2026-03-09T12:00:00.000Z',
    previous: '2026-03-02T13:00:00.000Z',
    next: '2026-03-16T12:00:00.000Z',
  });
  // The user's Monday, not UTC's: Monday 20:00 in New York is Tuesday 00:00 UTC.
  expect(periods(newYork('weekly', '20:00'), '2026-03-16T23:59:00Z')?.current).toBe('2026-03-10T00:00:00.000Z');
  expect(periods(newYork('weekly', '20:00'), '2026-03-17T00:00:00Z')?.current).toBe('2026-03-17T00:00:00.000Z');
});

test('monthly: the 1st at the send time, in each zone, across the change', () => {
  expect(periods(paris('monthly'), '2026-04-01T05:59:59Z')?.current).toBe('2026-03-01T07:00:00.000Z');
  expect(periods(paris('monthly'), '2026-04-01T06:00:00Z')).toEqual({
    current: '2026-04-01T06:00:00.000Z',
    previous: '2026-03-01T07:00:00.000Z',
    next: '2026-05-01T06:00:00.000Z',
  });
  expect(periods(newYork('monthly'), '2026-03-20T00:00:00Z')).toEqual({
    current: '2026-03-01T13:00:00.000Z',
    previous: '2026-02-01T13:00:00.000Z',
    next: '2026-04-01T12:00:00.000Z',
  });
});

test('never, an unknown zone or a malformed time: no period', () => {
  expect(currentPeriodStart(paris('never'), at('2026-03-29T12:00:00Z'))).toBeNull();
  expect(currentPeriodStart({ ...paris('daily'), time_zone: 'Mars/Olympus' }, at('2026-03-29T12:00:00Z'))).toBeNull();
  expect(currentPeriodStart(paris('daily', '8h'), at('2026-03-29T12:00:00Z'))).toBeNull();
  expect(currentPeriodStart(paris('daily'), at('2026-03-29T12:00:00Z'))).toBe(at('2026-03-29T06:00:00Z'));
});
