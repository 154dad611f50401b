import { createKeyedHash, createSecretBox } from './secret-box';

const KEY = 'k'.repeat(32);

test('sealed values open with the same key, purpose and associated data only', () => {
  const box = createSecretBox(KEY, 'test');
  const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
  expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
  expect(box.seal('JBSWY3DPEHPK3PXP', 'user-1')).not.toBe(sealed); // random IV
  expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
  expect(box.open(sealed, 'user-2')).toBeNull(); // copied onto another row
  expect(createSecretBox(KEY, 'other').open(sealed, 'user-1')).toBeNull();
  expect(createSecretBox('x'.repeat(32), 'test').open(sealed, 'user-1')).toBeNull();
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  raw[raw.length - 1]! ^= 1;
  expect(box.open(`v1.${raw.toString('base64url')}`, 'user-1')).toBeNull(); // tampered
  expect(box.open('JBSWY3DPEHPK3PXP', 'user-1')).toBeNull(); // plaintext is never taken as sealed
});

test('keyed hashes depend on the key and purpose', () => {
  const h = createKeyedHash(KEY, 'a');
  expect(h('code')).toMatch(/^[0-9a-f]{64}$/);
  expect(h('code')).toBe(h('code'));
  expect(createKeyedHash(KEY, 'b')('code')).not.toBe(h('code'));
  expect(createKeyedHash('x'.repeat(32), 'a')('code')).not.toBe(h('code'));
});
