// First: the test helpers it loads make jest able to load kysely.
import { D1, introspectSchema, migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';

// 0022: one system rule per set of patterns (a unique expression index, nulls as ''), on both
// databases; duplicates a race stored before are reduced to the rule that gives the same verdict.

type Rule = [id: string, from: string | null, subject: string | null, action: string, enabled: number, at: number];

const insert = (handle: DatabaseHandle, [id, from, subject, action, enabled, at]: Rule) =>
  sql`insert into system_rules (id, name, from_pattern, subject_pattern, to_pattern, ip_pattern, action, enabled,
      created_at, updated_at, created_by_id, created_by_email)
    values (${id}, ${`Rule ${id}`}, ${from}, ${subject}, null, null, ${action}, ${enabled}, ${at}, ${at}, null,
      'root@admin.example')`.execute(handle.db);

const version = async (handle: DatabaseHandle) =>
  Number(
    (await sql<{ version: number }>`select version from rspamd_lists where name = 'system-rules'`.execute(handle.db))
      .rows[0]!.version,
  );

/**
 * The message a refused write fails with ('' when it succeeds). Not `rejects.toThrow()`: the SQLite
 * driver's error class belongs to the first test file that loaded it, so a later file's matcher
 * does not see it as an Error.
 */
const refusal = (write: Promise<unknown>) =>
  write.then(
    () => '',
    (err: unknown) => String((err as { message?: unknown } | null)?.message ?? err),
  );

test('0022 keeps one rule per set of patterns (the same verdict), then refuses a duplicate; down removes it', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0021_search_attachments_urls')).error).toBeUndefined();
    const rules: Rule[] = [
      // Same patterns: the enabled one with the strictest action stays, though neither the oldest.
      ['a1', '*@dup.example', null, 'accept', 1, D1],
      ['a2', '*@dup.example', null, 'reject', 0, D1 + 1],
      ['a3', '*@dup.example', null, 'greylist', 1, D1 + 2],
      ['a4', '*@dup.example', null, 'soft_reject', 1, D1 + 3],
      // Same action and state: the oldest stays.
      ['b1', null, 'invoice', 'reject', 1, D1 + 5],
      ['b2', null, 'invoice', 'reject', 1, D1 + 4],
      // '' and null are the same key.
      ['c1', '*@empty.example', '', 'add_header', 1, D1 + 6],
      ['c2', '*@empty.example', null, 'add_header', 1, D1 + 7],
      // Not duplicates: another pattern, or the same value in another field.
      ['d1', '*@other.example', null, 'reject', 1, D1 + 8],
      ['d2', '*@other.example', 'invoice', 'reject', 1, D1 + 9],
    ];
    for (const rule of rules) await insert(handle, rule);
    const before = await version(handle);

    expect((await m.migrateTo('0022_system_rule_patterns_unique')).error).toBeUndefined();

    const kept = await sql<{ id: string }>`select id from system_rules order by id`.execute(handle.db);
    expect(kept.rows.map((r) => r.id)).toEqual(['a4', 'b2', 'c1', 'd1', 'd2']);
    expect(await version(handle)).toBe(before + 1);
    expect(await refusal(insert(handle, ['e1', '*@dup.example', null, 'accept', 1, D1 + 10]))).toMatch(/unique/i);
    expect(await refusal(insert(handle, ['e2', '*@empty.example', null, 'accept', 1, D1 + 10]))).toMatch(/unique/i);
    await insert(handle, ['e3', '*@dup.example', 'another', 'accept', 1, D1 + 10]);
    // Long patterns of varied CJK characters (3 bytes each, nothing to compress): over a btree
    // entry's 2704 bytes on PostgreSQL, still one storable rule (the index holds their hash there).
    const cjk = (n: number, seed: number) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919 + seed) % 20000))).join('');
    await insert(handle, ['e5', `*@${cjk(500, 1)}.example`, cjk(512, 2), 'accept', 1, D1 + 12]);

    expect((await m.migrateTo('0021_search_attachments_urls')).error).toBeUndefined();
    expect(Object.keys((await introspectSchema(handle)).indexes)).not.toContain('system_rules_patterns');
    await insert(handle, ['e4', '*@dup.example', null, 'accept', 1, D1 + 11]);
  }));

test('0022 on rules without duplicates changes no row and no list version', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0021_search_attachments_urls')).error).toBeUndefined();
    await insert(handle, ['a1', '*@one.example', null, 'reject', 1, D1]);
    await insert(handle, ['a2', '*@two.example', null, 'reject', 1, D1]);
    const before = await version(handle);
    expect((await m.migrateTo('0022_system_rule_patterns_unique')).error).toBeUndefined();
    const kept = await sql<{ id: string }>`select id from system_rules order by id`.execute(handle.db);
    expect(kept.rows.map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(await version(handle)).toBe(before);
  }));
