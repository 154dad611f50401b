import { sql } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import type { CountScope, RecipientStatus } from '../../db/schema';
import { newId } from '../../lib/ids';

export interface NewQuarantinedMessage {
  uuid?: string | null;
  receivedAt: number;
  sender: string;
  subject: string | null;
  score: number | null;
  action: string;
  size: number;
  messageId?: string | null;
  recipients: string[];
}

type CountKey = `${CountScope}\u0000${string}\u0000${RecipientStatus}`;

function addDelta(deltas: Map<CountKey, number>, domain: string, status: RecipientStatus, d: number) {
  for (const key of [`global\u0000*\u0000${status}`, `domain\u0000${domain}\u0000${status}`] as CountKey[]) {
    deltas.set(key, (deltas.get(key) ?? 0) + d);
  }
}

/**
 * Applies counter deltas inside the caller's transaction. Keys are applied in sorted order so
 * concurrent PostgreSQL writers lock counter rows in the same order (no deadlock).
 */
async function applyCountDeltas(trx: DbExecutor, deltas: Map<CountKey, number>): Promise<void> {
  for (const key of [...deltas.keys()].sort()) {
    const n = deltas.get(key)!;
    if (n === 0) continue;
    const [scope, scope_id, status] = key.split('\u0000') as [CountScope, string, RecipientStatus];
    await trx
      .insertInto('quarantine_counts')
      .values({ scope, scope_id, status, n })
      .onConflict((oc) =>
        oc.columns(['scope', 'scope_id', 'status']).doUpdateSet({ n: sql`quarantine_counts.n + ${n}` }),
      )
      .execute();
  }
}

export function recipientDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/** Stores a message, one pending row per distinct recipient, and the counters — all or nothing. */
export async function insertQuarantinedMessage(db: Db, msg: NewQuarantinedMessage): Promise<string> {
  const now = Date.now();
  const id = newId(msg.receivedAt);
  const recipients = [...new Set(msg.recipients.map((r) => r.trim().toLowerCase()))];
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('quarantine_messages')
      .values({
        id,
        uuid: msg.uuid ?? null,
        received_at: msg.receivedAt,
        sender: msg.sender,
        subject: msg.subject,
        score: msg.score,
        action: msg.action,
        size: msg.size,
        message_id: msg.messageId ?? null,
        created_at: now,
      })
      .execute();
    const deltas = new Map<CountKey, number>();
    if (recipients.length) {
      await trx
        .insertInto('quarantine_recipients')
        .values(
          recipients.map((recipient) => ({
            message_id: id,
            recipient,
            domain: recipientDomain(recipient),
            status: 'pending' as const,
            received_at: msg.receivedAt,
            updated_at: now,
          })),
        )
        .execute();
      for (const r of recipients) addDelta(deltas, recipientDomain(r), 'pending', 1);
    }
    await applyCountDeltas(trx, deltas);
    return id;
  });
}

/**
 * Moves one recipient row from `from` to `to` (compare-and-set, so two racing callers cannot both
 * succeed) and keeps the counters in the same transaction. Returns whether the row moved.
 */
export async function transitionRecipient(
  db: Db,
  messageId: string,
  recipient: string,
  from: RecipientStatus,
  to: RecipientStatus,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('quarantine_recipients')
      .set({ status: to, updated_at: Date.now() })
      .where('message_id', '=', messageId)
      .where('recipient', '=', recipient)
      .where('status', '=', from)
      .returning('domain')
      .executeTakeFirst();
    if (!moved) return false;
    const deltas = new Map<CountKey, number>();
    addDelta(deltas, moved.domain, from, -1);
    addDelta(deltas, moved.domain, to, 1);
    await applyCountDeltas(trx, deltas);
    return true;
  });
}
