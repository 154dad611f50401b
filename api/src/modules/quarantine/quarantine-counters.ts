import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { CountScope, RecipientStatus } from '../../db/schema';
import type { DailyField } from '../statistics/statistics.repository';
import { chunks } from './quarantine-scope';

// Counters (dashboard read model), kept in the writer's transaction.

type CountKey = `${CountScope}\u0000${string}\u0000${RecipientStatus}`;
export type CountDeltas = Map<CountKey, number>;

export function addDelta(deltas: CountDeltas, domain: string, status: RecipientStatus, d: number) {
  for (const key of [`global\u0000*\u0000${status}`, `domain\u0000${domain}\u0000${status}`] as CountKey[]) {
    deltas.set(key, (deltas.get(key) ?? 0) + d);
  }
}

/**
 * Applies counter deltas inside the caller's transaction in multi-row upserts (a counter row per
 * domain touched, plus the global one: one statement but for the largest batches). Rows in sorted key order so concurrent PostgreSQL writers
 * lock counter rows in the same order (no deadlock).
 */
export async function applyCountDeltas(trx: DbExecutor, deltas: CountDeltas): Promise<void> {
  const rows = [...deltas.keys()].sort().flatMap((key) => {
    const n = deltas.get(key)!;
    if (n === 0) return [];
    const [scope, scope_id, status] = key.split('\u0000') as [CountScope, string, RecipientStatus];
    return [{ scope, scope_id, status, n }];
  });
  for (const batch of chunks(rows)) {
    await trx
      .insertInto('quarantine_counts')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['scope', 'scope_id', 'status']).doUpdateSet({ n: sql`quarantine_counts.n + excluded.n` }),
      )
      .execute();
  }
}

/** The rollup column a move into `status` counts in (released and deleted are counted on the day of the change). */
export const DAILY_OF: Partial<Record<RecipientStatus, DailyField>> = { released: 'released', deleted: 'deleted' };
