/**
 * The public page a digest e-mail's links open: `/digest/<token>` (DESIGN §4.1). Kept apart from
 * the page so the host's first chunk only carries this test.
 */
export const DIGEST_PAGE_PREFIX = '/digest/';

export const isDigestPath = (path: string) => path.startsWith(DIGEST_PAGE_PREFIX);

/** The token of `/digest/<token>[/]`, or '' when there is none. */
export function digestTokenOf(path: string): string {
  if (!isDigestPath(path)) return '';
  const raw = path.slice(DIGEST_PAGE_PREFIX.length).replace(/\/+$/, '');
  if (!raw || raw.includes('/')) return '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}
