import { registerRspamdNamespace } from '../../i18n';
import { sinceText } from './StatusLine';

const i18n = registerRspamdNamespace();
const NOW = Date.parse('2026-11-20T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('"fetched … ago" of the status line', () => {
  it.each([
    ['fr', 0, 'il y a 0\u00a0s'],
    ['fr', 12, 'il y a 12\u00a0s'],
    ['fr', 59, 'il y a 59\u00a0s'],
    ['fr', 60, 'il y a 1\u00a0min'],
    ['fr', 3599, 'il y a 59\u00a0min'],
    ['fr', 7200, 'il y a 2\u00a0h'],
    ['en', 12, '12\u00a0s ago'],
    ['en', 125, '2\u00a0min ago'],
  ])('%s, %i s → %s', (lng, seconds, text) => {
    expect(sinceText(i18n.getFixedT(lng, 'rspamd'), lng, ago(seconds), NOW)).toBe(text);
  });

  it('beyond two days, the date; a clock slightly behind the server never says "in the future"', () => {
    expect(sinceText(i18n.getFixedT('en', 'rspamd'), 'en', ago(3 * 86400), NOW)).toMatch(/^on \S/);
    expect(sinceText(i18n.getFixedT('en', 'rspamd'), 'en', ago(-5), NOW)).toBe('0\u00a0s ago');
  });
});
