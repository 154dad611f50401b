import type { DbExecutor } from '../../db/database';
import type { UserPreferencesTable } from '../../db/schema';

export async function findPreferences(db: DbExecutor, userId: string): Promise<UserPreferencesTable | undefined> {
  return db.selectFrom('user_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function upsertPreferences(db: DbExecutor, row: UserPreferencesTable): Promise<void> {
  await db
    .insertInto('user_preferences')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        theme_mode: row.theme_mode,
        default_page_size: row.default_page_size,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}
