import { formatDateTime, formatUtcDay } from './date-format';

test('formatDateTime: the API instant in the language asked for, short or with seconds; bad text as is', () => {
  const iso = '2026-03-04T10:20:30Z';
  const local = new Date(iso);
  const fr = formatDateTime(iso, 'fr');
  expect(fr).toContain(String(local.getFullYear()));
  expect(fr).toContain(String(local.getMinutes()).padStart(2, '0'));
  expect(fr).not.toContain('30'); // no seconds in the short style
  expect(formatDateTime(iso, 'fr', 'medium')).toContain('30');
  expect(formatDateTime(iso, 'en')).not.toBe(fr);
  expect(formatDateTime('not a date', 'fr')).toBe('not a date');
});

test('formatUtcDay: the UTC day of the API, long with the year or short; anything else as is', () => {
  expect(formatUtcDay('2026-11-16', 'fr')).toBe('16 nov. 2026');
  expect(formatUtcDay('2026-11-16', 'en')).toBe('Nov 16, 2026');
  expect(formatUtcDay('2026-11-16', 'fr', 'short')).toBe('16 nov.');
  expect(formatUtcDay('2026-01-01', 'en', 'short')).toBe('Jan 1');
  expect(formatUtcDay('16/11/2026', 'fr')).toBe('16/11/2026');
});
