/** IANA time zones for the settings' picker, from the browser's Intl (no list shipped). */

/** The browser's own zone, if Intl names one. */
export function browserTimeZone(): string | null {
  try {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof tz === 'string' && tz ? tz : null;
  } catch {
    return null;
  }
}

let supported: readonly string[] | null = null;

/**
 * Every zone the browser knows, plus `extra` (the saved one and the browser's: an engine may list
 * only canonical names, e.g. not "UTC" or an alias the server accepted), sorted, once each.
 */
export function timeZoneOptions(extra: readonly (string | null | undefined)[]): string[] {
  if (!supported) {
    try {
      supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    } catch {
      supported = [];
    }
  }
  const all = new Set<string>(supported);
  all.add('UTC');
  for (const tz of extra) if (tz) all.add(tz);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** "America/New_York" → "America/New York": how it is shown and searched. */
export const timeZoneLabel = (tz: string) => tz.replace(/_/g, ' ');

/** Search ignoring case, "_" and "/": "new york", "paris", "europe paris" all match. */
export function matchesTimeZone(input: string, tz: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[_/]+/g, ' ').replace(/\s+/g, ' ').trim();
  return norm(tz).includes(norm(input));
}
