import type { DbExecutor } from '../../db/database';
import type { CountScope, RecipientStatus } from '../../db/schema';

export type StatusCounts = Partial<Record<RecipientStatus, number>>;

/** O(1): reads the counter rows of one scope. */
export async function countsForScope(db: DbExecutor, scope: CountScope, scopeId: string): Promise<StatusCounts> {
  const rows = await db
    .selectFrom('quarantine_counts')
    .select(['status', 'n'])
    .where('scope', '=', scope)
    .where('scope_id', '=', scopeId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * A user's own rows: an index range scan on (recipient, …) per address, small by nature. Every
 * address of theirs (issue 31): a mail to two of them is two recipient rows, counted as such (as
 * a domain_admin's counts count each recipient of their domain).
 */
export async function countsForRecipient(
  db: DbExecutor,
  recipients: string | readonly string[],
): Promise<StatusCounts> {
  const list = typeof recipients === 'string' ? [recipients] : [...recipients];
  if (!list.length) return {};
  const rows = await db
    .selectFrom('quarantine_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where((eb) => (list.length === 1 ? eb('recipient', '=', list[0]!) : eb('recipient', 'in', list)))
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
