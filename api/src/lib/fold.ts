/**
 * Text as the quarantine search compares it: lower case, accents removed ("Félicitations" →
 * "felicitations"). SQLite calls it as qc_fold() (registered on each connection); PostgreSQL has
 * its own qc_fold() (lower(unaccent()), migration 0019).
 */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase();
}
