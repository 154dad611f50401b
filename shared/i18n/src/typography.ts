/**
 * French typography (issue 23): a non-breaking space (U+00A0, or the narrow U+202F) before ":", ";",
 * "!" and "?", and between a number and its unit ("5 Mo", "30 s", "{{size}} Ko"). A plain space
 * there lets the line break between them ("5" at a line's end, "Mo" on the next).
 */
const UNITS = ['Mo', 'Ko', 'Go', 'To', 'o', 'Mio', 'Kio', 'Gio', 'ms', 's', 'min', 'h', 'j', '%', 'px', '€'];
/**
 * A word, digit, closing bracket, quote or placeholder, then a plain space, then the sign. "!" and
 * "?" only as punctuation (at the end, or before a capital): "* et ? sont des jokers" names a sign.
 */
const BEFORE_SIGN = /[\p{L}\p{N})\]}»’'"] (?:[:;](?=\s|$)|[!?](?=$|[\s.)»]*$|\s+[\p{Lu}«"]))/u;
/** A number or a {{placeholder}}, a plain space, then a unit standing alone (not "5 ou 6", "2 jours"). */
const NUMBER_UNIT = new RegExp(`(?:\\d|\\}\\}) (?:${UNITS.join('|')})(?![\\p{L}\\p{N}])`, 'u');

/** The offending bits of one string ('' when it is fine). */
export function frenchTypographyIssue(text: string): string {
  const sign = BEFORE_SIGN.exec(text);
  if (sign) return sign[0];
  const unit = NUMBER_UNIT.exec(text);
  return unit ? unit[0] : '';
}

/** Every leaf string of a resource object that breaks the rule, as "dotted.key: excerpt". */
export function frenchTypographyIssues(resources: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(resources).flatMap(([k, v]) => {
    if (v && typeof v === 'object') return frenchTypographyIssues(v as Record<string, unknown>, `${prefix}${k}.`);
    if (typeof v !== 'string') return [];
    const issue = frenchTypographyIssue(v);
    return issue ? [`${prefix}${k}: «${issue}» in «${v}»`] : [];
  });
}
