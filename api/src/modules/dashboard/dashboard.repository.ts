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

/** A user's own rows: an index range scan on (recipient, …), small by nature. */
export async function countsForRecipient(db: DbExecutor, recipient: string): Promise<StatusCounts> {
  const rows = await db
    .selectFrom('quarantine_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('recipient', '=', recipient)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
