/**
 * Invisible direction/zero-width controls (e.g. U+202E "gnp.exe") shown as a visible marker. Its own
 * tiny module so the quarantine list can use it without loading the sanitiser.
 */
const BIDI_CONTROLS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function revealBidi(s: string): string {
  return s.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** A subject as shown: its direction tricks revealed, or the language's "(no subject)" when it has none. */
export function shownSubject(subject: string | null, noSubject: string): string {
  return subject === null ? noSubject : revealBidi(subject);
}
