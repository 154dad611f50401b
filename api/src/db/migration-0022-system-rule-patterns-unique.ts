import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

/**
 * One system rule per set of patterns (issue 17): filters and control-panel filters have a unique
 * key, system rules were only checked inside the saving transaction, and on PostgreSQL's default
 * isolation two identical rules saved at the same moment could both be stored. The four patterns
 * are nullable (null: not used), so the key is an expression index over coalesce(pattern, '')
 * (both databases); the api never stores '' (an empty pattern is null), so no two distinct rules
 * the api can make share a key.
 *
 * Rows that would already violate it (only such a race could make them) are deduplicated first:
 * per set of patterns one rule is kept, the one that gives the same verdict as the whole group
 * (Rspamd applies the strictest action of the enabled rules that match): enabled before disabled,
 * then the strictest action, then the oldest. The others are deleted and the list's version is
 * bumped so Rspamd fetches the map again.
 *
 * On PostgreSQL the index holds an md5 of the four patterns joined by chr(1) (a control character no
 * pattern may contain): a btree entry is at most 2704 bytes, and four patterns of up to 512
 * characters each (3 bytes per CJK character) can exceed it, which would refuse a valid rule with a
 * 500 instead of storing it.
 */
export const SYSTEM_RULE_STRICTNESS_0022 = ['reject', 'soft_reject', 'greylist', 'add_header', 'accept'];

const PATTERNS = ['from_pattern', 'subject_pattern', 'to_pattern', 'ip_pattern'].map((c) => `coalesce(${c}, '')`);
const KEY = sql.raw(PATTERNS.join(', '));
const PG_KEY = sql.raw(`md5(${PATTERNS.join(' || chr(1) || ')})`);

interface Row {
  id: string;
  action: string;
  enabled: number | string;
  created_at: number | string;
}

/** The rules to keep first: enabled, strictest action, oldest, smallest id. */
function rank(a: Row, b: Row): number {
  const strict = (r: Row) => {
    const i = SYSTEM_RULE_STRICTNESS_0022.indexOf(r.action);
    return i < 0 ? SYSTEM_RULE_STRICTNESS_0022.length : i;
  };
  return (
    Number(b.enabled) - Number(a.enabled) ||
    strict(a) - strict(b) ||
    Number(a.created_at) - Number(b.created_at) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

async function dedupe(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<Row & { f: string; s: string; t: string; i: string }>`select r.id, r.action, r.enabled,
      r.created_at, d.f, d.s, d.t, d.i
    from system_rules r join (select coalesce(from_pattern, '') as f, coalesce(subject_pattern, '') as s,
        coalesce(to_pattern, '') as t, coalesce(ip_pattern, '') as i
      from system_rules group by ${KEY} having count(*) > 1) d
    on coalesce(r.from_pattern, '') = d.f and coalesce(r.subject_pattern, '') = d.s
      and coalesce(r.to_pattern, '') = d.t and coalesce(r.ip_pattern, '') = d.i`.execute(db);
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.f, row.s, row.t, row.i]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let deleted = 0;
  for (const group of groups.values()) {
    for (const loser of group.sort(rank).slice(1)) {
      await sql`delete from system_rules where id = ${loser.id}`.execute(db);
      deleted++;
    }
  }
  return deleted;
}

export const m0022_system_rule_patterns_unique: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      if (await dedupe(db)) {
        const now = Date.now();
        await sql`update rspamd_lists set version = version + 1,
          changed_at = case when changed_at >= ${now} then changed_at + 1 else ${now} end
          where name = 'system-rules'`.execute(db);
      }
      await sql`create unique index system_rules_patterns on system_rules (${isSqlite(db) ? KEY : PG_KEY})`.execute(db);
    });
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index system_rules_patterns`.execute(db);
  },
};
