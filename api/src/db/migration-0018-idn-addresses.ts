import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { domainToASCII } from 'node:url';
import { atomically, isSqlite } from './migration-helpers';

// Issue 21 item 5: the ingest stored recipients as Haraka handed them over, so mail to
// `ann@bücher.example` has domain `bücher.example` while the console's domains (and a domain
// admin's scope, accounts, lists) are A-labels. This rewrites every recipient whose domain is a
// U-label to the A-label form, with what is keyed by it: the search rows (SQLite), the counters,
// the per-day rollup (domain and recipient scopes), the domain audiences of the history and the
// as-received spellings kept for the release. Self-contained (node:url, not the app's helper), so
// later changes to the app cannot change what this migration did.
//
// A message that already had both spellings of one mailbox keeps its A-label row; the U-label row
// is dropped with its counters (its per-day rows stay counted: `cli stats:rebuild` recounts them).

const DAILY = ['quarantined', 'released', 'deleted', 'risk_low', 'risk_medium', 'risk_high', 'risk_critical'];
const NON_ASCII = /[^\x00-\x7f]/;
// As the app's normaliseAddress (@qc/contracts) at the time: what it leaves alone stays alone here.
const NOT_IN_A_NAME = /[\s/?#\\:@[\]%<>"^|]/u;

function aLabel(domain: string): string | null {
  if (NOT_IN_A_NAME.test(domain.normalize('NFKC'))) return null;
  const ascii = domainToASCII(domain);
  return /^[a-z0-9.-]+$/.test(ascii) && ascii !== domain ? ascii : null;
}

/** `local@D` → `local@A`, in SQL (lengths in characters on both databases). */
const swapped = (column: string, from: string, to: string) =>
  sql`substr(${sql.ref(column)}, 1, length(${sql.ref(column)}) - length(${from})) || ${to}`;

async function rewriteDomain(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  const sqlite = isSqlite(db);
  const newRecipient = swapped('r.recipient', from, to);
  // Both spellings of one mailbox in one message: the U-label row goes, with its counters.
  const dups = (
    await sql<{ message_id: string; recipient: string; status: string }>`
      select r.message_id, r.recipient, r.status from quarantine_recipients r
      where r.domain = ${from} and exists (select 1 from quarantine_recipients o
        where o.message_id = r.message_id and o.recipient = ${newRecipient})`.execute(db)
  ).rows;
  for (const d of dups) {
    await sql`delete from quarantine_recipients where message_id = ${d.message_id} and recipient = ${d.recipient}`.execute(
      db,
    );
    await sql`update quarantine_messages set recipient_count = recipient_count - 1 where id = ${d.message_id}`.execute(
      db,
    );
    await sql`update quarantine_counts set n = n - 1
      where ((scope = 'domain' and scope_id = ${from}) or (scope = 'global' and scope_id = '*'))
        and status = ${d.status}`.execute(db);
    if (sqlite) {
      await sql`delete from quarantine_search where message_id = ${d.message_id} and recipient = ${d.recipient}`.execute(
        db,
      );
    }
  }

  await sql`update quarantine_recipients set recipient = ${swapped('recipient', from, to)}, domain = ${to}
    where domain = ${from}`.execute(db);
  if (sqlite) {
    await sql`update quarantine_search set recipient = ${swapped('recipient', from, to)}, domain = ${to},
      body = ${swapped('recipient', from, to)} where domain = ${from}`.execute(db);
  }

  await sql`insert into quarantine_counts (scope, scope_id, status, n)
    select scope, ${to}, status, n from quarantine_counts where scope = 'domain' and scope_id = ${from}
    on conflict (scope, scope_id, status) do update set n = quarantine_counts.n + excluded.n`.execute(db);
  await sql`delete from quarantine_counts where scope = 'domain' and scope_id = ${from}`.execute(db);

  const columns = sql.join(DAILY.map((c) => sql.ref(c)));
  const sums = sql.join(DAILY.map((c) => sql`${sql.ref(c)} = quarantine_daily.${sql.ref(c)} + excluded.${sql.ref(c)}`));
  const ofRecipient = sql`scope = 'recipient' and length(scope_id) > length(${from})
    and substr(scope_id, length(scope_id) - length(${from})) = ${`@${from}`}`;
  await sql`insert into quarantine_daily (scope, scope_id, day, ${columns})
    select scope, case when scope = 'domain' then ${to} else ${swapped('scope_id', from, to)} end, day, ${columns}
    from quarantine_daily where (scope = 'domain' and scope_id = ${from}) or (${ofRecipient})
    on conflict (scope, scope_id, day) do update set ${sums}`.execute(db);
  await sql`delete from quarantine_daily where (scope = 'domain' and scope_id = ${from}) or (${ofRecipient})`.execute(
    db,
  );

  await sql`insert into history_audience (audience, created_at, history_id)
    select ${`d:${to}`}, created_at, history_id from history_audience where audience = ${`d:${from}`}
    on conflict do nothing`.execute(db);
  await sql`delete from history_audience where audience = ${`d:${from}`}`.execute(db);

  // The spellings kept for the release (JSON arrays): the same address with the A-label domain.
  const found = sqlite ? sql`instr(envelope_to, ${from}) > 0` : sql`strpos(envelope_to, ${from}) > 0`;
  const kept = (
    await sql<{ id: string; envelope_to: string }>`select id, envelope_to from quarantine_messages
      where envelope_to is not null and ${found}`.execute(db)
  ).rows;
  for (const row of kept) {
    let list: unknown;
    try {
      list = JSON.parse(row.envelope_to);
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    const next = list.map((a: unknown) =>
      typeof a === 'string' && a.toLowerCase().endsWith(`@${from}`) ? `${a.slice(0, a.length - from.length)}${to}` : a,
    );
    await sql`update quarantine_messages set envelope_to = ${JSON.stringify(next)} where id = ${row.id}`.execute(db);
  }
}

export const m0018_idn_addresses: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      const { rows } = await sql<{ domain: string }>`select distinct domain from quarantine_recipients`.execute(db);
      for (const { domain } of rows) {
        if (!NON_ASCII.test(domain)) continue;
        const ascii = aLabel(domain);
        // A name that is no IDN stays as stored: nothing could match it before or after.
        if (ascii) await rewriteDomain(db, domain, ascii);
      }
    });
  },
  // Nothing to undo in the schema; the A-label form is what every version reads correctly.
  async down() {},
};
