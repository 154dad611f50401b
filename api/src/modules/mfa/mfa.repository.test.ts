import { createTestApp, currentStep, totpAt, type TestApp } from '../../test/helpers';
import {
  advanceTotpStep,
  claimPartialToken,
  consumeBackupCode,
  ensurePartialToken,
  findPartialToken,
  recordPartialFailure,
  replaceBackupCodes,
} from './mfa.repository';
import { matchTotp, newBackupCodes, newTotpSecret, normalizeBackupCode } from './totp';

// The guards below are what keeps two concurrent requests from both succeeding: each is checked
// here on its own, on the real database.

let t: TestApp;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  userId = (await t.createUser({ email: 'repo@example.com' })).id;
});
afterAll(() => t.close());

test('advanceTotpStep: only a strictly newer step is accepted', async () => {
  expect(await advanceTotpStep(t.db, userId, 100)).toBe(true); // first one (null before)
  expect(await advanceTotpStep(t.db, userId, 100)).toBe(false); // the same step again
  expect(await advanceTotpStep(t.db, userId, 99)).toBe(false); // an older one
  expect(await advanceTotpStep(t.db, userId, 101)).toBe(true);
});

test('claimPartialToken: once', async () => {
  const now = Date.now();
  await ensurePartialToken(t.db, { jti: 'j1', user_id: userId, failures: 0, used_at: null, expires_at: now + 60_000 });
  // A second sight keeps the row as it is.
  await ensurePartialToken(t.db, { jti: 'j1', user_id: 'x', failures: 9, used_at: 1, expires_at: 0 });
  expect(await findPartialToken(t.db, 'j1')).toMatchObject({ user_id: userId, failures: 0, used_at: null });
  expect(await claimPartialToken(t.db, 'j1', now)).toBe(true);
  expect(await claimPartialToken(t.db, 'j1', now)).toBe(false);
});

test('recordPartialFailure: burns the token at the limit', async () => {
  const now = Date.now();
  await ensurePartialToken(t.db, { jti: 'j2', user_id: userId, failures: 0, used_at: null, expires_at: now + 60_000 });
  await recordPartialFailure(t.db, 'j2', 2, now);
  expect(await findPartialToken(t.db, 'j2')).toMatchObject({ failures: 1, used_at: null });
  await recordPartialFailure(t.db, 'j2', 2, now);
  expect(await findPartialToken(t.db, 'j2')).toMatchObject({ failures: 2, used_at: now });
  expect(await claimPartialToken(t.db, 'j2', now)).toBe(false);
});

test('consumeBackupCode: once, only for its user; replaceBackupCodes drops the old ones', async () => {
  const other = (await t.createUser({ email: 'repo-other@example.com' })).id;
  const now = Date.now();
  await replaceBackupCodes(t.db, userId, ['h1', 'h2'], now);
  expect(await consumeBackupCode(t.db, other, 'h1', now)).toBe(false);
  expect(await consumeBackupCode(t.db, userId, 'h1', now)).toBe(true);
  expect(await consumeBackupCode(t.db, userId, 'h1', now)).toBe(false);
  await replaceBackupCodes(t.db, userId, ['h3'], now);
  expect(await consumeBackupCode(t.db, userId, 'h2', now)).toBe(false);
  expect(await consumeBackupCode(t.db, userId, 'h3', now)).toBe(true);
});

test('matchTotp: ±1 step, and only after the given step', async () => {
  const secret = newTotpSecret();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const step = currentStep();
  // Even if the clock moved on to the next step meanwhile, `step` is still within ±1.
  expect(await matchTotp(secret, await totpAt(secret, step), null)).toBe(step);
  expect(await matchTotp(secret, await totpAt(secret, step + 5), null)).toBeNull();
  expect(await matchTotp(secret, await totpAt(secret, step), step)).toBeNull();
  expect(await matchTotp(secret, await totpAt(secret, step), step + 1)).toBeNull();
  expect(await matchTotp(secret, '12345', null)).toBeNull();
  expect(await matchTotp('not base32!', '123456', null)).toBeNull();
});

test('backup codes: 10 distinct codes from the alphabet; typing variants normalise', () => {
  const codes = newBackupCodes();
  expect(codes).toHaveLength(10);
  for (const c of codes) expect(c).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
  expect(normalizeBackupCode(' abcde-fghjk ')).toBe('ABCDEFGHJK');
});
