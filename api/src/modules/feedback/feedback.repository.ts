import { SqliteAdapter } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { FeedbackImagesTable, FeedbackTable } from '../../db/schema';

export type FeedbackRow = FeedbackTable;
export type FeedbackImageRow = FeedbackImagesTable;

export async function insertFeedback(db: DbExecutor, row: FeedbackRow, images: FeedbackImageRow[]): Promise<void> {
  await db.insertInto('feedback').values(row).execute();
  if (images.length) await db.insertInto('feedback_images').values(images).execute();
}

export interface FeedbackListRow extends FeedbackRow {
  user_email: string | null;
  user_username: string | null;
}

/** Newest first; keyset on (created_at, id) strictly after the cursor position. */
export async function listFeedback(
  db: DbExecutor,
  after: { createdAt: number; id: string } | null,
  limit: number,
): Promise<FeedbackListRow[]> {
  let query = db
    .selectFrom('feedback')
    .leftJoin('users', 'users.id', 'feedback.user_id')
    .selectAll('feedback')
    .select(['users.email as user_email', 'users.username as user_username']);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('feedback.created_at', '<', after.createdAt),
        eb.and([eb('feedback.created_at', '=', after.createdAt), eb('feedback.id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('feedback.created_at', 'desc').orderBy('feedback.id', 'desc').limit(limit).execute();
}

/** Image metadata (never the bytes) of these feedback rows, in upload order. */
export async function listImageMeta(
  db: DbExecutor,
  feedbackIds: string[],
): Promise<Omit<FeedbackImageRow, 'data' | 'reencoded'>[]> {
  if (!feedbackIds.length) return [];
  return db
    .selectFrom('feedback_images')
    .select(['id', 'feedback_id', 'position', 'mime', 'size'])
    .where('feedback_id', 'in', feedbackIds)
    .orderBy('feedback_id')
    .orderBy('position')
    .execute();
}

export async function findImage(
  db: DbExecutor,
  feedbackId: string,
  imageId: string,
): Promise<{ mime: string; data: Buffer; position: number; reencoded: number } | undefined> {
  return db
    .selectFrom('feedback_images')
    .select(['mime', 'data', 'position', 'reencoded'])
    .where('id', '=', imageId)
    .where('feedback_id', '=', feedbackId)
    .executeTakeFirst();
}

/** An image stored before uploads were re-encoded, replaced by its re-encoded bytes (once). */
export async function storeReencoded(db: DbExecutor, imageId: string, data: Buffer): Promise<void> {
  await db
    .updateTable('feedback_images')
    .set({ data, size: data.length, reencoded: 1 })
    .where('id', '=', imageId)
    .where('reencoded', '=', 0)
    .execute();
}

/** How many feedback rows this user stored since `since` (epoch ms), and when the oldest of them was. */
export async function recentFeedback(
  db: DbExecutor,
  userId: string,
  since: number,
): Promise<{ count: number; oldest: number | null }> {
  const row = await db
    .selectFrom('feedback')
    .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
}

/**
 * Holds the user's row until the transaction ends, so two submissions of one user count and insert
 * one after the other (the daily quota holds under concurrency). SQLite transactions already take
 * the write lock when they begin (db/database.ts).
 */
export async function lockUser(db: DbExecutor, userId: string): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}
