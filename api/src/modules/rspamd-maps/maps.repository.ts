import type { FilterType, RspamdListName } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { ApanelRow, FilterRow, SenderListRow, SystemRow } from './map-builder';

export interface ListVersion {
  version: number;
  changedAt: number;
}

/** The list's version and last change (bumped with every change of its rules, deletes included). */
export async function listVersion(db: DbExecutor, list: RspamdListName): Promise<ListVersion> {
  const row = await db
    .selectFrom('rspamd_lists')
    .select(['version', 'changed_at'])
    .where('name', '=', list)
    .executeTakeFirst();
  // Seeded by migration 0014: a missing row is a broken database, not an empty list.
  if (!row) throw new Error(`rspamd_lists has no row for ${list}`);
  return { version: Number(row.version), changedAt: Number(row.changed_at) };
}

// Ordered by id (time-ordered): the same rules always give the same bytes, hence the same ETag.

export function enabledFilters(db: DbExecutor, type: FilterType): Promise<FilterRow[]> {
  return db
    .selectFrom('rspamd_filters')
    .select(['id', 'value', 'pattern_type', 'action'])
    .where('type', '=', type)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

export function enabledApanelFilters(db: DbExecutor): Promise<ApanelRow[]> {
  return db
    .selectFrom('apanel_filters')
    .select(['id', 'from_pattern', 'to_pattern', 'action'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

export function enabledSystemRules(db: DbExecutor): Promise<SystemRow[]> {
  return db
    .selectFrom('system_rules')
    .select(['id', 'from_pattern', 'subject_pattern', 'to_pattern', 'ip_pattern', 'action'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/**
 * Every whitelist/blacklist entry with the name of its owner (domain name; for a user's entry, each
 * of their addresses: one row per address, primary first, issue 31), in entry order.
 */
export function senderListEntries(db: DbExecutor): Promise<SenderListRow[]> {
  return (
    db
      .selectFrom('sender_lists as l')
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .leftJoin('user_addresses as ua', 'ua.user_id', 'l.user_id')
      .leftJoin('domains as d', 'd.id', 'l.domain_id')
      .select(['l.id', 'l.kind', 'l.scope', 'l.address', 'd.name as domain_name'])
      // A user always has their primary among their addresses; the e-mail is the fallback all the same.
      .select((eb) => eb.fn.coalesce('ua.address', 'u.email').as('user_email'))
      .orderBy('l.id')
      .orderBy('ua.position')
      .execute()
  );
}

/** Rspamd fetched `map` (or confirmed it has it) at `version` of its list. */
export async function recordFetch(
  db: DbExecutor,
  fetch: { map: string; list: RspamdListName; version: number; at: number },
): Promise<void> {
  await db
    .insertInto('rspamd_map_fetches')
    .values({ map: fetch.map, list: fetch.list, fetched_at: fetch.at, version: fetch.version })
    .onConflict((oc) =>
      oc.column('map').doUpdateSet({ list: fetch.list, fetched_at: fetch.at, version: fetch.version }),
    )
    .execute();
}
