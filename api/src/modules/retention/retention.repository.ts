import { sql } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';

/**
 * The SQL that picks the next mail to purge (exported for the query-plan test): the partial index
 * qm_retention holds only mail not purged yet, so this is a short range scan, oldest first.
 * `received_at` comes from the mail stack's clock: a Haraka host whose clock runs weeks late would
 * date mail stored a minute ago past the cutoff. `created_at`, this server's, must be past it too.
 */
export function purgeCandidatesQuery(cutoff: number, limit: number) {
  return sql<{ id: string }>`select id from quarantine_messages
    where raw_purged_at is null and received_at < ${cutoff} and created_at < ${cutoff}
    order by received_at
    limit ${limit}`;
}

/**
 * One retention batch, in one transaction: up to `limit` of the oldest mail received before
 * `cutoff` loses its raw bytes and its text/HTML bodies; the metadata, recipients and their
 * statuses, the text-search rows (they hold only subject, senders and recipients) and the history
 * stay. Returns how many messages were purged.
 */
export async function purgeRawBatch(db: Db, cutoff: number, limit: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await purgeCandidatesQuery(cutoff, limit).execute(trx);
    const ids = rows.map((r) => r.id);
    if (!ids.length) return 0;
    await trx.deleteFrom('quarantine_raw').where('message_id', 'in', ids).execute();
    await trx
      .updateTable('quarantine_messages')
      .set({ raw_purged_at: now, body_text: null, body_html: null, body_truncated: 0 })
      .where('id', 'in', ids)
      .where('raw_purged_at', 'is', null)
      .execute();
    return ids.length;
  });
}

/**
 * Deletes up to `limit` sessions that can never be used again: revoked before `before`, or expired
 * before `before` in a sign-in (family) with no live token left — a replaced token of a live
 * family is kept until then, so its reuse is still detected and ends the family.
 */
export async function purgeSessionsBatch(db: DbExecutor, before: number, limit: number): Promise<number> {
  const result = await sql`delete from sessions where id in (
      select s.id from sessions s
      where (s.revoked_at is not null and s.revoked_at < ${before})
        or (s.expires_at < ${before} and not exists (
          select 1 from sessions l where l.family_id = s.family_id and l.revoked_at is null and l.expires_at >= ${before}))
      limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Single-use records of digest links used before `before`: by then every link they name has
 * expired (unsubscribe links last longest), so an expired link is refused without them.
 */
export async function purgeDigestLinkUses(db: DbExecutor, before: number): Promise<number> {
  const result = await db.deleteFrom('digest_link_uses').where('used_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
