import { RSPAMD_LISTS, type RspamdListName, type RspamdStatus } from '@qc/contracts';
import { sql } from 'kysely';
import { mapsOfList } from '../rspamd-maps/map-builder';
import type { DbExecutor } from '../../db/database';

/**
 * Bumps a list's version and changed_at: call it in the transaction of every change of that list
 * (creates, updates, enables and disables, deletes), so the maps built from it (rspamd-maps) get a
 * new ETag and Last-Modified and the status says the change is not live until Rspamd fetched it.
 * changed_at moves forward even within one millisecond.
 */
export async function bumpList(trx: DbExecutor, name: RspamdListName, now = Date.now()): Promise<void> {
  const result = await trx
    .updateTable('rspamd_lists')
    .set({
      version: sql`version + 1`,
      changed_at: sql`case when changed_at >= ${now} then changed_at + 1 else ${now} end`,
    })
    .where('name', '=', name)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`rspamd_lists has no row "${name}"`);
}

export interface ListVersion {
  name: RspamdListName;
  version: number;
  changed_at: number;
}

export async function listVersions(db: DbExecutor): Promise<ListVersion[]> {
  const rows = await db.selectFrom('rspamd_lists').selectAll().execute();
  return rows.map((r) => ({
    name: r.name as RspamdListName,
    version: Number(r.version),
    changed_at: Number(r.changed_at),
  }));
}

/** Enabled rules per list: what Rspamd is given. */
async function enabledCounts(db: DbExecutor): Promise<Map<RspamdListName, number>> {
  const counts = new Map<RspamdListName, number>();
  const filters = await db
    .selectFrom('rspamd_filters')
    .select((eb) => ['type', eb.fn.countAll<number | string>().as('n')])
    .where('enabled', '=', 1)
    .groupBy('type')
    .execute();
  for (const r of filters) counts.set(`filters-${r.type}`, Number(r.n));
  for (const [table, list] of [
    ['apanel_filters', 'apanel-filters'],
    ['system_rules', 'system-rules'],
  ] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('enabled', '=', 1)
      .executeTakeFirstOrThrow();
    counts.set(list, Number(row.n));
  }
  // Whitelist and blacklist entries have no enabled flag: every one is served.
  const entries = await db
    .selectFrom('sender_lists')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  counts.set('sender-lists', Number(entries.n));
  return counts;
}

/**
 * GET /api/rspamd/status/: per list, its enabled rules, when it last changed, when Rspamd last
 * fetched one of its maps (rspamd_map_fetches, written by the map routes), and whether every map
 * of it has been fetched at the list's current version (false until each one was).
 */
export async function rspamdStatus(db: DbExecutor): Promise<RspamdStatus> {
  const [versions, counts, fetches] = await Promise.all([
    listVersions(db),
    enabledCounts(db),
    db
      .selectFrom('rspamd_map_fetches')
      .select((eb) => [
        'list',
        eb.fn.max('fetched_at').as('fetched_at'),
        eb.fn.min('version').as('version'),
        eb.fn.countAll<number | string>().as('maps'),
      ])
      .groupBy('list')
      .execute(),
  ]);
  const byName = new Map(versions.map((v) => [v.name, v]));
  const fetchedBy = new Map(fetches.map((f) => [f.list, f]));
  return {
    lists: RSPAMD_LISTS.map((list) => {
      const version = byName.get(list);
      const fetch = fetchedBy.get(list);
      return {
        list,
        entries: counts.get(list) ?? 0,
        changed_at: version ? new Date(version.changed_at).toISOString() : null,
        fetched_at: fetch?.fetched_at == null ? null : new Date(Number(fetch.fetched_at)).toISOString(),
        // Every map of the list fetched at the current version (a list served as several maps is
        // live only once Rspamd has each of them).
        live: Boolean(
          version && fetch && Number(fetch.maps) >= mapsOfList(list).length && Number(fetch.version) >= version.version,
        ),
      };
    }),
  };
}
