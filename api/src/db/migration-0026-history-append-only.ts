import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

/**
 * The history is append-only (issue 29 item 7): a trigger refuses to UPDATE or DELETE its rows (and,
 * on PostgreSQL, to TRUNCATE it), whatever the role: the api's role owns the table, so grants alone
 * would not hold it, and a trigger also holds for the superuser the tests connect as. Nothing the
 * console does rewrites history: retention keeps it, a deleted user's rows keep their copies. The
 * one change let through is the one the database makes itself when a user is deleted: the
 * `actor_id` foreign key's ON DELETE SET NULL, with every other column unchanged.
 *
 * SQLite gets the same rule (RAISE(ABORT)): the same behaviour on both, at no cost; there it guards
 * against a bug or an injected statement, not against whoever holds the file. A later migration
 * that must rewrite history (a down removing an action, or SQLite's rebuild of the table, which
 * drops its triggers) calls dropHistoryGuards first and createHistoryGuards after.
 */
export const m0026_history_append_only: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, createHistoryGuards);
  },
  async down(db: Kysely<unknown>) {
    await atomically(db, dropHistoryGuards);
  },
};

// Every column of history at this migration, but actor_id: none may change (SQLite compares them
// one by one; PostgreSQL compares the whole row).
const FIXED_COLUMNS = [
  'id',
  'created_at',
  'actor_email',
  'actor_role',
  'actor_domain',
  'action',
  'email_id',
  'result',
  'code',
  'ip_address',
  'target_kind',
  'target_id',
  'target_label',
  'changes',
];

export async function createHistoryGuards(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    const unchanged = FIXED_COLUMNS.map((c) => `new.${c} is old.${c}`).join(' and ');
    await sql
      .raw(
        `create trigger history_no_update before update on history
        when not (old.actor_id is not null and new.actor_id is null and ${unchanged})
        begin select raise(abort, 'history is append-only: UPDATE refused'); end`,
      )
      .execute(db);
    await sql`create trigger history_no_delete before delete on history
        begin select raise(abort, 'history is append-only: DELETE refused'); end`.execute(db);
    return;
  }
  // Dollar-quoted body (no input). Nested IFs: NEW and OLD are unset in the TRUNCATE trigger, and
  // plpgsql does not promise to stop an AND at its first false term.
  await sql`create function qc_history_append_only() returns trigger language plpgsql as $guard$
    begin
      if tg_op = 'UPDATE' then
        if old.actor_id is not null and new.actor_id is null
          and to_jsonb(new) - 'actor_id' = to_jsonb(old) - 'actor_id' then
          return new;
        end if;
      end if;
      raise exception 'history is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end
    $guard$`.execute(db);
  await sql`create trigger history_append_only before update or delete on history
    for each row execute function qc_history_append_only()`.execute(db);
  await sql`create trigger history_no_truncate before truncate on history
    for each statement execute function qc_history_append_only()`.execute(db);
}

export async function dropHistoryGuards(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await sql`drop trigger history_no_update`.execute(db);
    await sql`drop trigger history_no_delete`.execute(db);
    return;
  }
  await sql`drop trigger history_append_only on history`.execute(db);
  await sql`drop trigger history_no_truncate on history`.execute(db);
  await sql`drop function qc_history_append_only()`.execute(db);
}
