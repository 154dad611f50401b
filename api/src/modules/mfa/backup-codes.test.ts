import { createKeyedHash } from '../../lib/secret-box';
import { createMfaUser, createTestApp, partialLogin, type TestApp } from '../../test/helpers';
import { createBackupCodeHasher } from './backup-codes';
import { normalizeBackupCode } from './totp';

// Issue 21 item 9: backup codes are argon2id (keyed), not a keyed HMAC alone; old HMAC codes still work.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const stored = (userId: string) =>
  t.db.selectFrom('mfa_backup_codes').select(['code_hash', 'used_at']).where('user_id', '=', userId).execute();
const verify = async (email: string, backup_code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-totp/',
    payload: { partial_token: await partialLogin(t, email), backup_code },
  });

test('new codes are stored as argon2id with the configured cost, one salt per issue; no HMAC of a code is stored', async () => {
  const user = await createMfaUser(t, 'argon@example.com');
  const rows = await stored(user.id);
  expect(rows).toHaveLength(10);
  const { memoryCost, timeCost, parallelism } = t.config.argon2;
  const prefix = `$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`;
  for (const row of rows) expect(row.code_hash.startsWith(prefix)).toBe(true);
  expect(new Set(rows.map((r) => r.code_hash.split('$')[4])).size).toBe(1); // one salt for the ten
  const hmac = createKeyedHash(t.config.secretKey, 'backup-code');
  const legacy = user.backupCodes.map((c) => hmac(`${user.id}:${normalizeBackupCode(c)}`));
  expect(rows.some((r) => legacy.includes(r.code_hash))).toBe(false);

  // They work, once each, typed any way.
  const code = user.backupCodes[3]!;
  const typed = `${code.slice(0, 5).toLowerCase()}-${code.slice(5)}`;
  expect((await verify(user.email, typed)).statusCode).toBe(200);
  expect((await verify(user.email, code)).statusCode).toBe(401);
  expect((await verify(user.email, 'AAAAAAAAAA')).statusCode).toBe(401);
  expect((await stored(user.id)).filter((r) => r.used_at !== null)).toHaveLength(1);
});

test('one argon2 computation per attempt whatever the number of codes (10 stored, 1 candidate)', async () => {
  const hasher = createBackupCodeHasher(t.config);
  const { codes, hashes } = await hasher.issue('u1');
  const candidates = await hasher.candidates('u1', codes[7]!, hashes);
  expect(candidates).toEqual([hashes[7]]);
  // Another user's id gives another hash for the same code (the id is hashed with it).
  expect(await hasher.candidates('u2', codes[7]!, hashes)).not.toContain(hashes[7]);
});

test('codes stored before (HMAC) keep working, once each, beside new-style ones of other users', async () => {
  const user = await createMfaUser(t, 'legacy@example.com');
  // As an earlier version stored them: HMAC-SHA256 under the backup-code sub-key.
  const hmac = createKeyedHash(t.config.secretKey, 'backup-code');
  const oldCodes = ['ABCDEFGHJK', 'MNPQRSTUVW'];
  await t.db.deleteFrom('mfa_backup_codes').where('user_id', '=', user.id).execute();
  await t.db
    .insertInto('mfa_backup_codes')
    .values(
      oldCodes.map((c, i) => ({
        id: `legacy-${i}`,
        user_id: user.id,
        code_hash: hmac(`${user.id}:${c}`),
        created_at: Date.now(),
        used_at: null,
      })),
    )
    .execute();
  expect((await verify(user.email, 'abcde-fghjk')).statusCode).toBe(200);
  expect((await verify(user.email, 'ABCDEFGHJK')).statusCode).toBe(401); // used
  expect((await verify(user.email, 'ZZZZZZZZZZ')).statusCode).toBe(401);
  expect((await verify(user.email, oldCodes[1]!)).statusCode).toBe(200);
});
