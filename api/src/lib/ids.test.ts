import { isId, monotonicIds, newId } from './ids';

test('monotonicIds: ids of one millisecond increase in call order; a new millisecond starts afresh', () => {
  const next = monotonicIds();
  const ids = Array.from({ length: 2000 }, () => next(1_700_000_000_000));
  expect(ids.every(isId)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
  const later = next(1_700_000_000_001);
  expect(later > ids[ids.length - 1]!).toBe(true);
  expect(later.slice(0, 10) > ids[0]!.slice(0, 10)).toBe(true);
  expect(newId(1_700_000_000_000).slice(0, 10)).toBe(ids[0]!.slice(0, 10));
});
