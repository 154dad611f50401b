import {
  BUILTIN_NOTIFICATION_DEFAULTS,
  type DigestLanguage,
  type NotificationPrefs,
  type RspamdSymbol,
} from '@qc/contracts';
import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { DigestSendsTable, RecipientStatus } from '../../db/schema';
import { chunks, scopeSql } from '../quarantine/quarantine-scope';
import { addressesColumn, splitAddresses } from '../users/user-addresses.repository';

export type DigestKind = DigestSendsTable['kind'];
export type { DigestLanguage };

const languageOf = (v: string | null | undefined): DigestLanguage => (v === 'en' ? 'en' : 'fr');

/** A user a digest may go to, with their effective settings. */
export interface DigestUser {
  id: string;
  /** Their primary address: where digests go. */
  email: string;
  /** Every address whose mail is theirs (issue 31), the primary first: what their own digest lists. */
  addresses: string[];
  role: string;
  /** A domain_admin's domain (lower case), else null. */
  domain: string | null;
  /** The e-mail's language (their settings', else the defaults'). */
  language: DigestLanguage;
  prefs: NotificationPrefs;
  /** A domain_admin who asked for their domain's digest too (own settings only). */
  domainDigest: boolean;
}

/**
 * Recipient statuses a digest lists: still held and nothing under way (a release in progress, or
 * one whose outcome is unknown, is not offered again from a mail).
 */
export const DIGEST_STATUSES: RecipientStatus[] = ['pending', 'release_failed'];

/** What users without their own row get: the admin's defaults row, else the built-in ones. */
export async function effectiveDefaults(db: DbExecutor): Promise<NotificationPrefs> {
  const row = await db
    .selectFrom('notification_defaults')
    .select(['enabled', 'frequency', 'send_time', 'time_zone', 'language'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row
    ? { ...row, enabled: Number(row.enabled) === 1, language: languageOf(row.language) }
    : { ...BUILTIN_NOTIFICATION_DEFAULTS };
}

function usersQuery(db: DbExecutor) {
  return db
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .leftJoin('domains as d', 'd.id', 'u.domain_id')
    .select([
      'u.id',
      'u.email',
      'u.role',
      'd.name as domain_name',
      's.user_id as own',
      's.enabled',
      's.frequency',
      's.send_time',
      's.time_zone',
      's.language',
      's.domain_digest',
    ])
    .select(addressesColumn('u.id'))
    .where('u.is_active', '=', 1);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['execute']>>[number];

function toDigestUser(row: UserRow, defaults: NotificationPrefs): DigestUser {
  const prefs: NotificationPrefs =
    row.own !== null
      ? {
          enabled: Number(row.enabled) === 1,
          frequency: row.frequency!,
          send_time: row.send_time!,
          time_zone: row.time_zone!,
          language: languageOf(row.language),
        }
      : defaults;
  const domain = row.role === 'domain_admin' && row.domain_name ? row.domain_name.toLowerCase() : null;
  return {
    id: row.id,
    email: row.email,
    addresses: splitAddresses(row.addresses, row.email).map((a) => a.toLowerCase()),
    role: row.role,
    domain,
    language: prefs.language,
    prefs,
    domainDigest: domain !== null && row.own !== null && Number(row.domain_digest) === 1,
  };
}

/**
 * Active users whose effective settings (their own row, else the defaults) are enabled with a
 * frequency other than `never`: the candidates of a digest run (the schedule decides who is due).
 */
export async function digestCandidates(db: DbExecutor): Promise<DigestUser[]> {
  const defaults = await effectiveDefaults(db);
  const rows = await usersQuery(db)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.user_id', 'is not', null), eb('s.enabled', '=', 1), eb('s.frequency', '!=', 'never')]),
        // Users on the defaults: all of them or none.
        ...(defaults.enabled && defaults.frequency !== 'never' ? [eb('s.user_id', 'is', null)] : []),
      ]),
    )
    .orderBy('u.id')
    .execute();
  return rows.map((r) => toDigestUser(r, defaults));
}

/** One active user with their effective settings (enabled or not), or undefined. */
export async function findDigestUser(db: DbExecutor, userId: string): Promise<DigestUser | undefined> {
  const row = await usersQuery(db).where('u.id', '=', userId).executeTakeFirst();
  return row ? toDigestUser(row, await effectiveDefaults(db)) : undefined;
}

/** Whose quarantine a digest lists: a user's recipient addresses (kind user) or a domain (kind domain). */
export type DigestScope = { kind: 'user'; addresses: string[] } | { kind: 'domain'; domain: string };

export interface DigestItem {
  id: string;
  received_at: number;
  sender: string;
  subject: string | null;
  score: number | null;
  symbols: RspamdSymbol[];
}

export interface PendingDigest {
  /** Messages held for the scope that arrived after `since` (all of them, not only those listed). */
  count: number;
  /** The newest arrival among them, null when none. */
  newest: number | null;
  /** The newest `limit`, newest first. */
  items: DigestItem[];
}

function parseSymbols(text: string | null): RspamdSymbol[] {
  try {
    const parsed: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(parsed) ? (parsed as RspamdSymbol[]) : [];
  } catch {
    return [];
  }
}

/**
 * What is held for a scope and arrived after `since` and not after `until` (epoch ms; no upper
 * bound when undefined): the recipient rows of the user's addresses (their "mine", as the
 * quarantine list) or of the domain, in DIGEST_STATUSES, of messages whose original is still
 * there (a purged one can no longer be released).
 */
export async function pendingForDigest(
  db: DbExecutor,
  scope: DigestScope,
  since: number,
  limit: number,
  until?: number,
): Promise<PendingDigest> {
  const held = (alias: string) =>
    sql.join(
      [
        scopeSql(scope.kind === 'user' ? { kind: 'recipient', addresses: scope.addresses } : scope, alias),
        sql`${sql.ref(`${alias}.status`)} in (${sql.join(DIGEST_STATUSES)})`,
        sql`${sql.ref(`${alias}.received_at`)} > ${since}`,
        ...(until === undefined ? [] : [sql`${sql.ref(`${alias}.received_at`)} <= ${until}`]),
      ],
      sql` and `,
    );
  // A domain's message may have several of its recipients (a user's, several of their addresses):
  // counted and listed once.
  const totals = await sql<{ n: number | string; newest: number | string | null }>`
    select count(*) as n, max(k.received_at) as newest from (
      select r.message_id, max(r.received_at) as received_at
      from quarantine_recipients r join quarantine_messages m on m.id = r.message_id
      where ${held('r')} and m.raw_purged_at is null
      group by r.message_id) k`.execute(db);
  const count = Number(totals.rows[0]?.n ?? 0);
  if (count === 0) return { count: 0, newest: null, items: [] };
  const rows = await db
    .selectFrom('quarantine_messages as m')
    .select(['m.id', 'm.received_at', 'm.sender', 'm.subject', 'm.score', 'm.symbols'])
    .where('m.raw_purged_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('quarantine_recipients as r')
          .select(sql`1`.as('one'))
          .whereRef('r.message_id', '=', 'm.id')
          .where(sql<boolean>`${held('r')}`),
      ),
    )
    .orderBy('m.received_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return {
    count,
    newest: totals.rows[0]?.newest == null ? null : Number(totals.rows[0].newest),
    items: rows.map((r) => ({
      id: r.id,
      received_at: Number(r.received_at),
      sender: r.sender,
      subject: r.subject,
      score: r.score === null ? null : Number(r.score),
      symbols: parseSymbols(r.symbols),
    })),
  };
}

// --- Claims: one send per (user, kind, period) across runners and replicas ---------------------

export interface DigestKey {
  userId: string;
  kind: DigestKind;
  periodStart: number;
}

export interface DigestRowState {
  user_id: string;
  kind: DigestKind;
  status: DigestSendsTable['status'];
  claimed_at: number;
}

/** The rows of these users for one period start (both kinds), by `${user_id} ${kind}`. */
export async function digestRowsForPeriod(
  db: DbExecutor,
  periodStart: number,
  userIds: string[],
): Promise<Map<string, DigestRowState>> {
  const out = new Map<string, DigestRowState>();
  for (const ids of chunks(userIds)) {
    const rows = await db
      .selectFrom('digest_sends')
      .select(['user_id', 'kind', 'status', 'claimed_at'])
      .where('period_start', '=', periodStart)
      .where('user_id', 'in', ids)
      .execute();
    for (const r of rows) out.set(`${r.user_id} ${r.kind}`, { ...r, claimed_at: Number(r.claimed_at) });
  }
  return out;
}

const byKey = (key: DigestKey) => ({ user_id: key.userId, kind: key.kind, period_start: key.periodStart }) as const;

/**
 * Takes the period's claim for `owner`: a new row (status sending); or, compare-and-set on what
 * was read, a `failed` row (retried at the next run) or a `sending` row whose claimer has not
 * finished within `staleMs` (it died). False when another runner has it or it is done.
 */
export async function claimDigest(
  db: DbExecutor,
  key: DigestKey,
  owner: string,
  now: number,
  staleMs: number,
): Promise<boolean> {
  const k = byKey(key);
  const inserted = await db
    .insertInto('digest_sends')
    .values({ ...k, status: 'sending', claimed_by: owner, claimed_at: now, attempts: 0 })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'period_start']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  const row = await db
    .selectFrom('digest_sends')
    .select(['status', 'claimed_by', 'claimed_at'])
    .where('user_id', '=', k.user_id)
    .where('kind', '=', k.kind)
    .where('period_start', '=', k.period_start)
    .executeTakeFirst();
  if (!row) return false;
  const takeable = row.status === 'failed' || (row.status === 'sending' && Number(row.claimed_at) < now - staleMs);
  if (!takeable) return false;
  const taken = await db
    .updateTable('digest_sends')
    .set({ status: 'sending', claimed_by: owner, claimed_at: now })
    .where('user_id', '=', k.user_id)
    .where('kind', '=', k.kind)
    .where('period_start', '=', k.period_start)
    .where('status', '=', row.status)
    .where('claimed_at', '=', row.claimed_at)
    .where((eb) => (row.claimed_by === null ? eb('claimed_by', 'is', null) : eb('claimed_by', '=', row.claimed_by)))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export type DigestOutcome =
  | { status: 'sent'; cutoff: number; itemCount: number; sentAt: number }
  | { status: 'empty'; cutoff: number }
  | { status: 'failed'; itemCount: number; error: string };

/** Records how a claimed period ended; false when the claim was no longer `owner`'s (taken over). */
export async function finishDigest(
  db: DbExecutor,
  key: DigestKey,
  owner: string,
  outcome: DigestOutcome,
): Promise<boolean> {
  const k = byKey(key);
  const result = await db
    .updateTable('digest_sends')
    .set((eb) => ({
      status: outcome.status,
      attempts: eb('attempts', '+', 1),
      cutoff: outcome.status === 'failed' ? null : outcome.cutoff,
      item_count: outcome.status === 'empty' ? 0 : outcome.itemCount,
      sent_at: outcome.status === 'sent' ? outcome.sentAt : null,
      error: outcome.status === 'failed' ? outcome.error : null,
    }))
    .where('user_id', '=', k.user_id)
    .where('kind', '=', k.kind)
    .where('period_start', '=', k.period_start)
    .where('status', '=', 'sending')
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The cutoff of the latest digest that went out (or was found empty), whatever its period start:
 * the next one lists only later arrivals. Not "of the period before this one": a new send time or
 * time zone moves the period starts (an early `--now` digest under tomorrow 08:00's key, then 07:00
 * chosen: tomorrow 07:00 comes before it), and a digest under a later key must still count, or the
 * next one would list again what it listed. Null: none yet.
 */
export async function previousCutoff(db: DbExecutor, key: Omit<DigestKey, 'periodStart'>): Promise<number | null> {
  const row = await db
    .selectFrom('digest_sends')
    .select((eb) => eb.fn.max('cutoff').as('cutoff'))
    .where('user_id', '=', key.userId)
    .where('kind', '=', key.kind)
    .where('status', 'in', ['sent', 'empty'])
    .executeTakeFirst();
  return row?.cutoff == null ? null : Number(row.cutoff);
}

/**
 * When each of these users last got a digest of each kind (sent_at of their latest `sent` row), by
 * `${user_id} ${kind}`: a period whose start is not after it is done, whatever its key (the schedule
 * changed since: no second mail that day).
 */
export async function lastSentAt(db: DbExecutor, userIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const ids of chunks(userIds)) {
    const rows = await db
      .selectFrom('digest_sends')
      .select((eb) => ['user_id', 'kind', eb.fn.max('sent_at').as('sent_at')])
      .where('user_id', 'in', ids)
      .where('status', '=', 'sent')
      .groupBy(['user_id', 'kind'])
      .execute();
    for (const r of rows) if (r.sent_at != null) out.set(`${r.user_id} ${r.kind}`, Number(r.sent_at));
  }
  return out;
}
