import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { QuarantineDeliveriesTable, QuarantineMessagesTable } from '../../db/schema';
import { byMessageScope, type Scope } from './quarantine-scope';

// A message's detail: its row, its raw bytes, its delivery attempts.

export type MessageRow = QuarantineMessagesTable;

export async function findMessage(db: DbExecutor, id: string): Promise<MessageRow | undefined> {
  return db.selectFrom('quarantine_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function messageExists(db: DbExecutor, id: string): Promise<boolean> {
  return !!(await db.selectFrom('quarantine_messages').select('id').where('id', '=', id).executeTakeFirst());
}

export async function findRaw(db: DbExecutor, id: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('quarantine_raw').select('data').where('message_id', '=', id).executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

export type DeliveryRow = QuarantineDeliveriesTable;

/** The latest release attempt that concerned a recipient the caller sees. */
export async function lastDelivery(db: DbExecutor, id: string, scope: Scope): Promise<DeliveryRow | undefined> {
  const { rows } = await sql<DeliveryRow>`select d.* from quarantine_deliveries d
    where d.id in (select delivery_id from quarantine_recipients
      where message_id = ${id} and delivery_id is not null and ${byMessageScope(db, scope)})
    order by d.started_at desc, d.id desc limit 1`.execute(db);
  const row = rows[0];
  return row
    ? {
        ...row,
        started_at: Number(row.started_at),
        finished_at: row.finished_at === null ? null : Number(row.finished_at),
      }
    : undefined;
}
